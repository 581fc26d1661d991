package pickle

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

// jsonLike turns decoded values into what encoding/json produces, so that
// Python's own json.dump of the same object is the oracle.
func jsonLike(v any) any {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case Tuple:
		return jsonLike([]any(x))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonLike(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = jsonLike(e)
		}
		return out
	}
	return v
}

func TestDecodeMatchesPython(t *testing.T) {
	raw, err := os.ReadFile("testdata/values.json")
	if err != nil {
		t.Fatal(err)
	}
	var want any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"values_p2.pkl", "values_p4.pkl", "values_p5.pkl"} {
		b, err := os.ReadFile(filepath.Join("testdata", p))
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeBytes(b)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !reflect.DeepEqual(jsonLike(got), want) {
			t.Errorf("%s decoded to %v, want %v", p, jsonLike(got), want)
		}
	}
}

func TestDecodeKeepsBigIntsExact(t *testing.T) {
	b, _ := os.ReadFile("testdata/values_p2.pkl")
	v, err := DecodeBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	n := v.(map[string]any)["n"].([]any)
	if n[7] != int64(1758610505880883597) || n[6] != int64(-(1<<62)) || n[4] != int64(-70000) {
		t.Errorf("integers = %v", n)
	}
	if _, ok := v.(map[string]any)["t"].(Tuple); !ok {
		t.Errorf("tuple decoded as %T", v.(map[string]any)["t"])
	}
}

func TestForbiddenOpcodesAreRejected(t *testing.T) {
	for file, op := range map[string]string{"forbidden_reduce.pkl": "GLOBAL", "forbidden_global_p4.pkl": "STACK_GLOBAL"} {
		b, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		_, err = DecodeBytes(b)
		var pe *Error
		if !errors.Is(err, ErrForbidden) || !errors.As(err, &pe) || !strings.Contains(err.Error(), op) {
			t.Errorf("%s: got %v, want a forbidden %s error", file, err, op)
		}
	}
}

func TestTruncatedAndMalformed(t *testing.T) {
	b, _ := os.ReadFile("testdata/values_p2.pkl")
	for n := 0; n < len(b); n += 7 {
		if _, err := DecodeBytes(b[:n]); err == nil {
			t.Fatalf("prefix of %d bytes decoded without error", n)
		} else if n > 0 && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("prefix of %d bytes: %v, want unexpected EOF", n, err)
		}
	}
	bad := map[string][]byte{
		"underflow":   []byte("\x80\x02a."),
		"odd dict":    []byte("\x80\x02}(Ku."),
		"bad memo":    []byte("\x80\x02h\x05."),
		"two values":  []byte("\x80\x02NN."),
		"cycle":       []byte("\x80\x02]q\x00h\x00a."),
		"wide long":   []byte("\x80\x02\x8a\x09\x01\x01\x01\x01\x01\x01\x01\x01\x01."),
		"bad utf8":    []byte("\x80\x02X\x01\x00\x00\x00\xff."),
		"huge length": []byte("\x80\x02X\xff\xff\xff\x7f"),
	}
	for name, in := range bad {
		if _, err := DecodeBytes(in); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
}

func TestRealFlightRecorderDump(t *testing.T) {
	p := filepath.Join(shared.Dir(t), "traces", "nccl", "NVIDIA_nvidia-resiliency-ext__fr_traces", "gpu_error_1st", "_dump_12")
	f, err := os.Open(p)
	if err != nil {
		t.Skipf("real dump absent: %v", err)
	}
	defer f.Close()
	v, err := Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	// 27 entries and version 2.9: counted with pickletools (27 'record_id' keys).
	if m["version"] != "2.9" || len(m["entries"].([]any)) != 27 {
		t.Errorf("version %v, %d entries", m["version"], len(m["entries"].([]any)))
	}
}

func FuzzDecode(f *testing.F) {
	for _, p := range []string{"values_p2.pkl", "values_p4.pkl", "forbidden_reduce.pkl"} {
		b, _ := os.ReadFile(filepath.Join("testdata", p))
		f.Add(b)
	}
	// {"a": [1, 2], "b": the same list (memo), "c": (1, 2)}, inline so the
	// corpus never depends on files.
	f.Add([]byte("\x80\x02}q\x00(X\x01\x00\x00\x00a]q\x01(K\x01K\x02eX\x01\x00\x00\x00bh\x01X\x01\x00\x00\x00cK\x01K\x02\x86u."))
	f.Fuzz(func(t *testing.T, b []byte) {
		lim := Limits{MaxDepth: 50, MaxItems: 1 << 12, MaxStrLen: 1 << 16}
		v, err := DecodeLimits(strings.NewReader(string(b)), lim)
		var pe *Error
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("error %v is not a *pickle.Error", err)
		}
		if err == nil && containsForbidden(b) {
			t.Fatalf("decoded %v although the input holds a forbidden opcode", v)
		}
	})
}

// containsForbidden reports whether b starts with a forbidden opcode right
// after the protocol header, the one place an opcode byte is unambiguous.
func containsForbidden(b []byte) bool {
	if len(b) < 3 || b[0] != opProto {
		return false
	}
	_, ok := forbidden[b[2]]
	return ok
}
