package nccl

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tpptrace/tpptrace/ingest/nccl/pickle"
)

// maxQuote bounds what an error message quotes of an input value: a shared
// (memoised) pickle list can stand for billions of values, a string for
// hundreds of megabytes.
const maxQuote = 200

// brief formats a decoded value as Go's %v would, cut after maxQuote bytes
// (with "…"); it walks only as much of the value as it prints.
func brief(v any) string {
	var b strings.Builder
	if !writeBrief(&b, v) {
		return cut(b.String()) + "…"
	}
	return b.String()
}

// quote is strconv.Quote of s, cut after maxQuote bytes.
func quote(s string) string {
	if len(s) <= maxQuote {
		return strconv.Quote(s)
	}
	return strconv.Quote(cut(s)) + "…"
}

// cut keeps the first maxQuote bytes of s, at a rune boundary.
func cut(s string) string {
	if len(s) <= maxQuote {
		return s
	}
	n := maxQuote
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// writeBrief appends v; false once maxQuote bytes are written.
func writeBrief(b *strings.Builder, v any) bool {
	switch x := v.(type) {
	case []any:
		return writeSeq(b, x)
	case pickle.Tuple:
		return writeSeq(b, x)
	case []int32:
		b.WriteByte('[')
		for i, r := range x {
			if i > 0 {
				b.WriteByte(' ')
			}
			if b.WriteString(strconv.Itoa(int(r))); b.Len() > maxQuote {
				return false
			}
		}
		b.WriteByte(']')
	case map[string]any:
		fmt.Fprintf(b, "a dict of %d keys", len(x))
	case string:
		b.WriteString(cut(x))
		return len(x) <= maxQuote && b.Len() <= maxQuote
	default:
		fmt.Fprint(b, x)
	}
	return b.Len() <= maxQuote
}

func writeSeq(b *strings.Builder, x []any) bool {
	b.WriteByte('[')
	for i, e := range x {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !writeBrief(b, e) {
			return false
		}
	}
	b.WriteByte(']')
	return b.Len() <= maxQuote
}
