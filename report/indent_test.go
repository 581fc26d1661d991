package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// indentCases are compact and spaced JSON texts with the shapes indentJSON
// must get right: empty containers, nesting, escaped quotes and
// backslashes, punctuation inside strings.
var indentCases = []string{
	`{}`, `[]`, `{"a":[]}`, `[{},[],{"b":{}}]`, `"x"`, `12.5e-3`, `null`,
	`{"a":1,"b":[true,false,null],"c":{"d":"e"}}`,
	`{"q":"a \"quoted\" {word}, [x]: y","bs":"\\","bsq":"\\\"","u":"\u003c\u00e9"}`,
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	` { "spaced" : [ 1 , 2 ] } `,
}

// TestIndentJSONIsJSONIndent: on compacted JSON indentJSON appends what
// json.Indent does.
func TestIndentJSONIsJSONIndent(t *testing.T) {
	for _, s := range indentCases {
		checkIndent(t, []byte(s))
	}
	var b bytes.Buffer
	if err := JSON(&b, fixed()); err != nil {
		t.Fatal(err)
	}
	checkIndent(t, b.Bytes())
}

// TestJSONIsMarshalIndent: JSON writes json.MarshalIndent's bytes and a
// newline.
func TestJSONIsMarshalIndent(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, fixed()); err != nil {
		t.Fatal(err)
	}
	want, err := json.MarshalIndent(fixed(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), append(want, '\n')) {
		t.Fatalf("JSON differs from MarshalIndent:\n%s\n%s", b.Bytes(), want)
	}
}

// FuzzIndentJSON: any valid JSON text, compacted, indents as json.Indent
// indents it.
func FuzzIndentJSON(f *testing.F) {
	for _, s := range indentCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if json.Valid(data) {
			checkIndent(t, data)
		}
	})
}

// checkIndent compares indentJSON of src, compacted, with json.Indent.
func checkIndent(t *testing.T, src []byte) {
	t.Helper()
	var c, want bytes.Buffer
	if err := json.Compact(&c, src); err != nil {
		t.Fatalf("compact %q: %v", src, err)
	}
	if err := json.Indent(&want, c.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	if got := indentJSON([]byte("pre"), c.Bytes()); !bytes.Equal(got, append([]byte("pre"), want.Bytes()...)) {
		t.Fatalf("indentJSON(%q) =\n%s\nwant\n%s", c.Bytes(), got, want.Bytes())
	}
}
