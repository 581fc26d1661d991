package vocab

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Safe returns s fit for a terminal: every control character (C0 with tab
// and newline, DEL, C1), the bidirectional and zero-width format characters
// and every invalid UTF-8 byte are escaped as \xNN or \uNNNN, so that a
// host, kernel or file name read from a trace can neither move the cursor,
// set the window title, clear the screen, reorder text nor start a forged
// line. A backslash is left as is: the escapes are for reading, not for
// parsing back. Strings without such characters are returned unchanged.
func Safe(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || unsafeRune(r) {
			return true
		}
		i += n
	}
	return false
}

// unsafeRune: C0, DEL, C1, and the format characters that reorder or hide
// text (bidi embeddings, overrides and isolates, zero-width marks, BOM).
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0xfeff, r == 0x061c:
		return true
	}
	return false
}

// SafeLines is Safe applied to each line of s, keeping its line breaks: for
// messages of several lines (an error listing files) whose lines may quote
// input.
func SafeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Safe(l)
	}
	return strings.Join(lines, "\n")
}
