package kineto

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// quirks are elements where encoding/json's rules matter: keys matched
// without case, escapes, invalid UTF-8, nulls, type errors, duplicate keys,
// malformed values nobody reads.
var quirks = []string{
	`{"PH":"X","Name":"a","CAT":"cpu_op"}`, `{"ph":"X","name":"a","NAME":"b"}`, `{"p\u0068":"X"}`,
	`{"name":"\u212a"}`, `{"\u212aey":1}`, "{\"name\":\"a\xffb\"}", "{\"n\xc5\xbfme\":\"x\"}", `{"ſtream":1}`,
	`{"args":{"ſtream":7,"Proceſs Group Name":"g","ExTernal ID":3}}`,
	`{"name":"\ud83d\ude00 \ud83d x \u00e9 \/ \b \f \n \r \t \" \\"}`, `{"name":"\x"}`, `{"name":"\u12"}`,
	`{"args":{"External id":1.0}}`, `{"args":{"External id":1e3}}`, `{"args":{"External id":-0}}`,
	`{"args":{"External id":99999999999999999999}}`, `{"args":{"External id":"5"}}`, `{"args":{"External id":true}}`,
	`{"args":{"External id":null}}`, `{"args":{"External id":01}}`, `{"args":{"External id":-}}`,
	`{"args":[1]}`, `{"args":null}`, `{"args":"x"}`, `null`, `5`, `[1]`, `"s"`, `true`, `nul`, `nullx`,
	`{"name":5}`, `{"name":null}`, `{"name":"a","name":null}`, `{"name":true}`, `{"name":{}}`, `{"name":[]}`,
	`{"zz":[1,,2]}`, `{"zz":[1 2]}`, `{"zz":tru}`, `{"zz":{"a" 1}}`, `{"zz":{1:2}}`, `{"zz":01}`, `{"zz":1.}`,
	`{"zz":-}`, `{"zz":"a\x"}`, `{"zz":1e}`, `{"zz":1e+}`, `{"zz":-01}`, `{"zz":[}`, `{"zz":[1,]}`, `{"zz":{"a":1,}}`,
	`{"ph":"X",}`, `{"ph" "X"}`, `{,"ph":"X"}`, `{"ph":"X" "cat":"c"}`, `{}`, `{ }`, `{"ts":{"a":1}}`, `{"ts":"1.5"}`,
	`{"ts":"a\"b"}`, "{\"zz\":\"a\x01b\"}", "{\"name\":\"a\x01b\"}", "{\"name\":\"a\tb\"}", "{\"name\":\"a\x7fb\"}",
	`{"pid":"Spans","tid":"12"}`, `{"pid":[1]}`, `{"pid":1.5}`, `{"pid":1e400}`, `{"pid":true}`, `{"pid":"\u0031"}`,
	`{"args":{"stream":7,"Stream":8}}`, `{"args":{"name":"x","NAME":"y"}}`, `{"args":{"Collective name":"a","collective NAME":"b"}}`,
	`{"ph":"X"} x`, `{"ph":"X"}}`, `{"args":{"Seq":"12"}}`, `{"args":{"Seq":12.0}}`, `{"args":{"dtype":null,"Input Dims":[[1,2]]}}`,
	`{"args":{"device":1e2}}`, `{"args":{"device":-1}}`, `{"args":{"device":9223372036854775807}}`,
	`{"args":{"device":9223372036854775808}}`, `{"args":{"device":-9223372036854775808}}`, `{"args":{"device":+1}}`,
	`{"args":{"device":.5}}`, `{"ts":1,"ts":null}`, `{"Ts":"9"}`, `{"TID":3}`, `{"ph":"X","args":{"a":[{"b":[{}]}]},"name":"n"}`,
	`{"name":"a\u0000b"}`, `{"name":"\uDFFF"}`, `{"name":"\uD800\u0041"}`, `{"name":"\uD800\uDC00"}`, `{"name":"\uD800"}`,
	`{"args":{"Process Group Ranks":"[0, 1]","Process Group Name":"\u0030","In msg nelems":"7","Dst Rank":2.0,"Input type":["float"]}}`,
	`{"args":{"args":{"name":"inner"}},"args":{"labels":"L"}}`, `{"a\"b":1,"name":"q"}`, `{"":1}`, `{"ph":"\u0058"}`,
	"{\n  \"ph\": \"X\",\r\n\t\"name\" : \"n\" ,\"dur\":1.5e-3 }",
	// ts of 16 digits (µs since the epoch), up to maxMicros and past it
	`{"ph": "X", "ts": 1712195495519689.047, "dur": 63.813, "name": "k"}`, `{"ts": 1682725898236567, "dur": 68.0, "pid": 1}`,
	`{"ts": 4611686018427387.001, "dur": 1, "pid": 1, "tid": 2}`, `{"ts": 4611686018427387, "dur": 1, "pid": 1, "tid": 2}`,
	`{"ts": 17121954955196890, "dur": 1, "pid": 1, "tid": 2}`, `{"ts": 1712195495519689e3, "dur": 1, "pid": 1, "tid": 2}`,
}

// decodeOracle decodes an element with encoding/json.
func decodeOracle(b []byte) (rawEvent, error) {
	var ev rawEvent
	ev.reset()
	err := json.Unmarshal(b, &ev)
	return sansBuffers(ev), err
}

// sansBuffers drops what two equal events may differ in: the number texts'
// buffers (the one-pass decoder's plain texts are the input's bytes) and
// the name's cache entry.
func sansBuffers(ev rawEvent) rawEvent {
	ev.Ts.own, ev.Dur.own, ev.nameEnt = nil, nil, nil
	return ev
}

// decodeOnePass decodes a whole element with evDecoder.
func decodeOnePass(d *evDecoder, b []byte) (rawEvent, int, error) {
	var ev rawEvent
	ev.reset()
	n, err := d.decode(b, &ev, true)
	return sansBuffers(ev), n, err
}

// checkAgainstOracle requires evDecoder and encoding/json to agree on the
// element b: both refuse it or both give the same event; and decoding b
// from a longer buffer gives the same event and length.
func checkAgainstOracle(t *testing.T, d *evDecoder, b []byte) {
	t.Helper()
	got, n, err := decodeOnePass(d, b)
	if errors.Is(err, errDeep) {
		return // the splitter refuses these before any decoder sees them
	}
	want, werr := decodeOracle(b)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%q: one-pass error %v, encoding/json error %v", b, err, werr)
	}
	if err != nil {
		return
	}
	if n != len(b) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%q (n %d of %d):\n one-pass %+v\n encoding/json %+v", b, n, len(b), got, want)
	}
	if b[0] != '{' {
		return
	}
	var ev rawEvent
	ev.reset()
	m, err := d.decode(append(append([]byte{}, b...), `, {"ph": "X"}`...), &ev, false)
	ev = sansBuffers(ev)
	if err != nil || m != len(b) || !reflect.DeepEqual(ev, want) {
		t.Fatalf("%q in a buffer: n %d, err %v, %+v", b, m, err, ev)
	}
}

func TestEventDecoderQuirks(t *testing.T) {
	var d evDecoder
	for _, q := range quirks {
		checkAgainstOracle(t, &d, []byte(q))
	}
	nest := func(n int) []byte { return []byte(strings.Repeat(`{"a":[`, n/2) + "1" + strings.Repeat("]}", n/2)) }
	if _, _, err := decodeOnePass(&d, nest(maxDepth)); err != nil {
		t.Errorf("nesting of %d: %v", maxDepth, err)
	}
	if _, _, err := decodeOnePass(&d, nest(maxDepth+2)); !errors.Is(err, errDeep) {
		t.Errorf("nesting of %d: %v", maxDepth+2, err)
	}
}

// TestEventDecoderShort: every proper prefix of an element is short in a
// buffer (so the splitter reads more) and an error whole.
func TestEventDecoderShort(t *testing.T) {
	var d evDecoder
	el := []byte(`{"ph": "X", "cat": "kernel", "name": "k\u00e9", "pid": 0, "tid": 7, "ts": 1.5e3, "dur": -0.25, "args": {"stream": 7, "grid": [1, {"x": null}, true, false], "s": "a\"b"}}`)
	for i := 0; i < len(el); i++ {
		var ev rawEvent
		if _, err := d.decode(el[:i], &ev, false); err != errShort {
			t.Fatalf("prefix %q: %v, want errShort", el[:i], err)
		}
		if _, err := d.decode(el[:i], &ev, true); err == nil {
			t.Fatalf("prefix %q decoded whole", el[:i])
		}
	}
	checkAgainstOracle(t, &d, el)
}

// FuzzEventDecoder compares the one-pass decoder with encoding/json on
// arbitrary elements.
func FuzzEventDecoder(f *testing.F) {
	for _, q := range quirks {
		f.Add([]byte(q))
	}
	for _, p := range sharedSnippets(f) {
		if i := bytes.Index(p, []byte(`{"ph"`)); i >= 0 {
			if j := bytes.Index(p[i:], []byte("},")); j > 0 {
				f.Add(p[i : i+j+1])
			}
		}
	}
	var d evDecoder
	f.Fuzz(func(t *testing.T, b []byte) {
		b = bytes.Trim(b, " \t\r\n")
		if len(b) == 0 {
			return
		}
		checkAgainstOracle(t, &d, b)
	})
}
