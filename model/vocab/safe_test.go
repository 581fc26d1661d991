package vocab

import (
	"strings"
	"testing"
)

func TestSafeEscapesTerminalControls(t *testing.T) {
	cases := map[string]string{
		"node01":               "node01",
		"µs ü 中":               "µs ü 中",
		"\x1b]0;pwned\x07host": `\x1b]0;pwned\x07host`,
		"\x1b[2J\x1b[H":        `\x1b[2J\x1b[H`,
		"a\nwarning: forged":   `a\x0awarning: forged`,
		"cr\rover":             `cr\x0dover`,
		"c1\u009b31m":          `c1\x9b31m`,
		"bidi\u202eevil":       `bidi\u202eevil`,
		"bad\xffutf8":          `bad\xffutf8`,
		"tab\there":            `tab\x09here`,
		"del\x7f":              `del\x7f`,
	}
	for in, want := range cases {
		if got := Safe(in); got != want {
			t.Errorf("Safe(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSafeOutputHasNoControls(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 0x300; i++ {
		b.WriteRune(rune(i))
	}
	b.WriteString("\u202e\u2066\ufeff\xc3")
	for _, r := range Safe(b.String()) {
		if unsafeRune(r) || r == 0xfffd {
			t.Fatalf("Safe left %U in its output", r)
		}
	}
}

func TestSafeLinesKeepsLineBreaks(t *testing.T) {
	if got, want := SafeLines("no trace:\n  a\x1b[2J.json: empty\n  b.json: x"), "no trace:\n  a\\x1b[2J.json: empty\n  b.json: x"; got != want {
		t.Fatalf("SafeLines = %q, want %q", got, want)
	}
}
