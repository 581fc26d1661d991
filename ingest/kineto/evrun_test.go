package kineto

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// runSeeds are pairs of elements: a decoder learns the runs of the first,
// then decodes the second, which lays its members out alike or nearly.
var runSeeds = [][2]string{
	{`{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"External id": 3, "stream": 7, "correlation": 3}}`,
		`{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"External id": 3, "stream": 7, "correlation": 3}}`},
	{"{\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 2,\n    \"ts\": 5.000, \"dur\": 20.5,\n    \"args\": {\n      \"External id\": 1, \"Ev Idx\": 2\n    }\n  }",
		"{\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 2,\n    \"ts\": 6.000, \"dur\":  20.5,\n    \"args\": {\n      \"External id\": 1 \"Ev Idx\": 2\n    }\n  }"},
	{`{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"External id": 3, "stream": 7, "correlation": 3}}`,
		`{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"External id": 3, "stream": 7, "correlation": 3,}}`},
	{`{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"Process Group Description": "x", "In msg nelems": 4}}`,
		`{"ph": "X", "Cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"Process Group Description": "x", "In msg nelems": 4}, "x": 1}`},
	{`{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"External id": 3, "Process Group Description": "x"}}`,
		`{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"External id": 3, "Process Group Descriptiox": "x"}}`},
	{`{"ph": "s", "id": 3, "pid": 0, "tid": 7, "ts": 1.5, "cat": "ac2g", "name": "ac2g"}`,
		`{"ph": "s", "id": 3, "pid": 0, "tid": 7, "ts": 1.5, "cat": "ac2g", "name": "ac2g" }`},
	// predicted strings (strField): the same first 40 bytes, then another
	// end, an escape, a byte >= 0x80, a control character, a longer name
	{`{"ph": "X", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128", "cat": "kernel"}`,
		`{"ph": "X", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize12", "cat": "kernel"}`},
	{`{"ph": "X", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128", "cat": "kernel"}`,
		`{"ph": "X", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x", "cat": "kernel"}`},
	{`{"ph": "X", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128", "cat": "kernel"}`,
		`{"ph": "X", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize1\"8", "cat": "kernel"}`},
	{`{"ph": "X", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128", "cat": "kernel"}`,
		"{\"ph\": \"X\", \"name\": \"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize1\xc3\xa9\", \"cat\": \"kernel\"}"},
	{`{"ph": "X", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128", "cat": "kernel"}`,
		"{\"ph\": \"X\", \"name\": \"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize1\x01\", \"cat\": \"kernel\"}"},
	{`{"ph": "X", "cat": "kernel", "name": "ab", "args": {"name": "ab"}, "pid": 1, "tid": 2, "ts": 1, "dur": 2}`,
		`{"ph": "X", "cat": "kernel", "name": "ab", "args": {"name": "ab\u0041"}, "pid": 1, "tid": 2, "ts": 1, "dur": 2}`},
	// kept args tails (argTail): the same launch configuration; one value
	// other; a member read where a skipped one was; the same bytes cut
	// short; another name; a tail of nested values and escapes, then
	// invalid; the tail's members after a read one
	{argTailKernel(`"registers per thread": 168, "grid": [132, 1, 1], "block": [384, 1, 1]}`),
		argTailKernel(`"registers per thread": 168, "grid": [132, 1, 1], "block": [384, 1, 1]}`)},
	{argTailKernel(`"registers per thread": 168, "grid": [132, 1, 1], "block": [384, 1, 1]}`),
		argTailKernel(`"registers per thread": 168, "grid": [132, 1, 2], "block": [384, 1, 1]}`)},
	{argTailKernel(`"registers per thread": 168, "grid": [132, 1, 1], "correlation": 1}`),
		argTailKernel(`"registers per thread": 168, "grid": [132, 1, 1], "correlation": 9}`)},
	{argTailKernel(`"registers per thread": 168, "grid": [132, 1, 1], "block": [384, 1, 1]}`),
		argTailKernel(`"registers per thread": 168, "grid": [132, 1, 1], "block": [384, 1, 1]`)},
	{argTailKernel(`"registers per thread": 168, "grid": [132, 1, 1], "block": [384, 1, 1]}`),
		strings.Replace(argTailKernel(`"registers per thread": 168, "grid": [132, 1, 1], "block": [384, 1, 1]}`), `"name": "gemm_k"`, `"name": "gemm_j"`, 1)},
	{argTailKernel(`"x": {"a": [1, "\u00e9\n"], "b": null}, "y": true, "z": -1.5e3}`),
		argTailKernel(`"x": {"a": [1, "\u00e9\n"], "b": null}, "y": true, "z": -1.5e3,}`)},
	{argTailKernel(`"x": {"a": [1, "\u00e9\n"], "b": null}, "y": true, "z": -1.5e3}`),
		argTailKernel(`"x": {"a": [1, "\u00e9\n"], "b": null}, "y": true, "z": -1.5e3}`)},
	{argTailKernel(`"registers per thread": 168, "grid": [132, 1, 1], "block": [384, 1, 1]}`),
		argTailKernel(`"registers per thread": 168, "grid": [132, 1, 1], "block": [384, 1, 1], "stream": 3}`)},
	// event prefixes (eventPrefix): the same prefix, other times; another
	// tid past the hashed bytes; more white space after the prefix; the
	// element cut right after it; a name with escapes, a string pid, a key
	// twice and a null name inside it; a prefix ending at an unknown key
	{prefixEvent(`"tid": 7, `, `"ts": 1.5, "dur": 2}`), prefixEvent(`"tid": 7, `, `"ts": 9.25, "dur": 3, "args": {"External id": 4}}`)},
	{prefixEvent(`"tid": 7, `, `"ts": 1.5, "dur": 2}`), prefixEvent(`"tid": 8, `, `"ts": 1.5, "dur": 2}`)},
	{prefixEvent(`"tid": 7, `, `"ts": 1.5, "dur": 2}`), prefixEvent(`"tid": 7, `, "\"ts\":  \n\t 1.5}")},
	{prefixEvent(`"tid": 7, `, `"ts": 1.5, "dur": 2}`), prefixEvent(`"tid": 7, `, `"ts": `)},
	{prefixEvent(`"tid": 7, `, `"ts": 1.5, "dur": 2}`), prefixEvent(`"tid": 7, `, `"ts": 1.5, "dur": 2`)},
	{strings.Replace(prefixEvent(`"tid": 7, `, `"ts": 1.5}`), `gemm_k`, `ge\"mm\u00e9_k`, 1), strings.Replace(prefixEvent(`"tid": 7, `, `"ts": 2.5}`), `gemm_k`, `ge\"mm\u00e9_k`, 1)},
	{prefixEvent(`"tid": "Spans", `, `"ts": 1.5}`), prefixEvent(`"tid": "Spans", `, `"ts": 2}`)},
	{prefixEvent(`"tid": 7, "ph": "B", `, `"ts": 1.5}`), prefixEvent(`"tid": 7, "ph": "B", `, `"ts": 2}`)},
	{strings.Replace(prefixEvent(`"tid": 7, `, `"ts": 1.5}`), `"gemm_k"`, `null`, 1), strings.Replace(prefixEvent(`"tid": 7, `, `"ts": 2}`), `"gemm_k"`, `null`, 1)},
	{prefixEvent(`"tid": 7, `, `"id": 3, "ts": 1.5}`), prefixEvent(`"tid": 7, `, `"id": 4, "ts": 1.5}`)},
}

// prefixEvent is an event of 48 bytes and more before its tid, then tid
// (its member and the members up to the next, as given) and rest.
func prefixEvent(tid, rest string) string {
	return `{"ph": "X", "cat": "kernel", "name": "gemm_k", "pid": 1234567, ` + tid + rest
}

// argTailKernel is a kernel event whose args end in tail, after the
// members read.
func argTailKernel(tail string) string {
	return `{"ph": "X", "cat": "kernel", "name": "gemm_k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"External id": 3, "correlation": 3, ` + tail + `}`
}

// runPad follows an element in a buffer, long enough that every run of
// the element is compared.
const runPad = `, {"ph": "X", "cat": "cpu_op", "name": "padding", "pid": 1, "tid": 1}`

// decodeIn decodes el with d, whole and at the start of a longer buffer.
func decodeIn(d *evDecoder, el []byte) (evs [2]rawEvent, ns [2]int, errs [2]string) {
	for j, whole := range []bool{true, false} {
		b := el
		if !whole {
			b = append(append([]byte{}, el...), runPad...)
		}
		evs[j].reset()
		n, err := d.decode(b, &evs[j], whole)
		evs[j], ns[j] = sansBuffers(evs[j]), n
		if err != nil {
			errs[j] = err.Error()
		}
	}
	return evs, ns, errs
}

// checkRuns requires a decoder that learnt the runs of a to decode b as a
// new decoder does (the event, the length and the error's text) and as
// encoding/json does.
func checkRuns(t *testing.T, a, b []byte) {
	t.Helper()
	a, b = bytes.Trim(a, " \t\r\n"), bytes.Trim(b, " \t\r\n")
	if len(b) == 0 || b[0] != '{' {
		return
	}
	var taught, fresh evDecoder
	decodeIn(&taught, a)
	decodeIn(&taught, a)
	ev1, n1, e1 := decodeIn(&taught, b)
	ev2, n2, e2 := decodeIn(&fresh, b)
	if n1 != n2 || e1 != e2 || !reflect.DeepEqual(ev1, ev2) {
		t.Fatalf("after %q, %q:\n taught %v %q %+v\n fresh %v %q %+v", a, b, n1, e1, ev1, n2, e2, ev2)
	}
	if e1[0] == "" || e2[0] == "" {
		checkAgainstOracle(t, &taught, b)
	}
}

func TestMemberRuns(t *testing.T) {
	for _, s := range runSeeds {
		checkRuns(t, []byte(s[0]), []byte(s[1]))
	}
	for _, q := range quirks {
		checkRuns(t, []byte(runSeeds[0][0]), []byte(q))
		checkRuns(t, []byte(q), []byte(q))
	}
}

// FuzzMemberRuns: learnt runs change no decoded event, length or error.
func FuzzMemberRuns(f *testing.F) {
	for _, s := range runSeeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) { checkRuns(t, a, b) })
}

// TestRunStatesByCategory: events of one category with many names lay out
// their args alike, and their runs are learnt once, not once a name (the
// args start in the category's state), so a file of many kernel names
// keeps few runs and does not evict them.
func TestRunStatesByCategory(t *testing.T) {
	var d evDecoder
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < 300; i++ {
			el := fmt.Sprintf(`{"ph": "X", "cat": "kernel", "name": "kernel_%d", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"External id": %d, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": %d, "registers per thread": 168}}`, i, i, i)
			var ev rawEvent
			ev.reset()
			if _, err := d.decode([]byte(el), &ev, true); err != nil || ev.Args.Corr != int64(i) {
				t.Fatalf("%s: %v %+v", el, err, ev.Args)
			}
		}
	}
	if n := learnt(&d.runs[1]); n > 16 {
		t.Errorf("%d args runs learnt for one layout, want at most 16", n)
	}
}

// learnt counts the runs a table holds.
func learnt(t *runTable) int {
	n := 0
	for _, ways := range t {
		for _, r := range ways {
			if r.n != 0 {
				n++
			}
		}
	}
	return n
}

// TestPredictedStrings: a decoder that saw a plain string takes it again
// without a scan (strField); taught or not, a decoder gives the same event.
func TestPredictedStrings(t *testing.T) {
	a := []byte(`{"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", "pid": 1, "tid": 2, "ts": 1, "dur": 2}`)
	var d evDecoder
	decodeIn(&d, a)
	key, ok := predictKey(a, bytes.Index(a, []byte("sm90")))
	if !ok || d.strs.pred[key&(uint(len(d.strs.pred))-1)] == nil {
		t.Fatal("the kernel name was not kept for prediction")
	}
	checkRuns(t, a, a)
}

// TestArgTailKept: the skipped members that end a kernel's args are kept
// for its name and taken again by one compare (argTail); members read
// after them, or fewer bytes than minArgTail, keep none. Taught or not, a
// decoder gives the same event (TestMemberRuns, FuzzMemberRuns).
func TestArgTailKept(t *testing.T) {
	tail := `"registers per thread": 168, "grid": [132, 1, 1], "block": [384, 1, 1]}`
	cases := []struct {
		el, want string
	}{
		{argTailKernel(tail), `168, "grid": [132, 1, 1], "block": [384, 1, 1]}`},
		{argTailKernel(`"registers per thread": 168, "stream": 7}`), ""},
		{argTailKernel(`"queued": 0}`), ""},
	}
	for _, c := range cases {
		var d evDecoder
		var ev rawEvent
		for range 2 {
			ev.reset()
			if _, err := d.decode([]byte(c.el), &ev, true); err != nil || ev.Args.Corr != 3 {
				t.Fatalf("%s: %v %+v", c.el, err, ev.Args)
			}
		}
		e := d.strs.get([]byte("gemm_k"))
		if string(e.tail) != c.want {
			t.Errorf("%s: kept %q, want %q", c.el, e.tail, c.want)
		}
	}
}

// TestEventPrefixKept: an event's members before its first time (and that
// time's key), seen a second time, are kept with what they decoded to
// (eventPrefix) and taken again by one compare;
// taught or not, a decoder gives the same event (TestMemberRuns,
// FuzzMemberRuns).
func TestEventPrefixKept(t *testing.T) {
	a := []byte(prefixEvent(`"tid": 7, `, `"ts": 1.5, "dur": 2}`))
	var d evDecoder
	var ev rawEvent
	for range 2 { // seen, then learnt
		ev.reset()
		if _, err := d.decode(a, &ev, true); err != nil {
			t.Fatal(err)
		}
	}
	slot := -1
	if d.prefixes != nil {
		_, slot = d.prefixAt(1)
	}
	if slot < 0 || d.prefixes.e[slot][0] == nil || string(d.prefixes.e[slot][0].b) != `"ph": "X", "cat": "kernel", "name": "gemm_k", "pid": 1234567, "tid": 7, "ts": ` {
		t.Fatalf("no prefix kept for %s", a)
	}
	b := []byte(prefixEvent(`"tid": 7, `, `"ts": 3.5, "dur": 4}`))
	if d.b = b; func() bool { p, _ := d.prefixAt(1); return p == nil }() {
		t.Fatal("the prefix was not found again")
	}
	checkRuns(t, a, b)
}

// TestEventPrefixWays: events whose first prefixKeyBytes bytes are the
// same (names that differ late, as templated kernels do) keep a prefix
// each, up to prefixWays, and each finds its own.
func TestEventPrefixWays(t *testing.T) {
	name := "void at::native::vectorized_elementwise_kernel<4, at::native::"
	var evs [][]byte
	tails := []string{"A", "B", "C"}
	for _, tail := range tails {
		evs = append(evs, []byte(`{"ph": "X", "cat": "kernel", "name": "`+name+tail+`", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2}`))
	}
	var d evDecoder
	var ev rawEvent
	for range 2 {
		for _, el := range evs {
			ev.reset()
			if _, err := d.decode(el, &ev, true); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, el := range evs {
		d.b = el
		if p, _ := d.prefixAt(1); p == nil || p.name != name+tails[i] {
			t.Errorf("%s: no prefix of its own", el)
		}
		checkRuns(t, evs[0], el)
	}
}
