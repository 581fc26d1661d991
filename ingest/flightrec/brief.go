package flightrec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/flightrec/pickle"
	"github.com/tpptrace/tpptrace/ingest/nccl"
)

// brief formats a decoded value as Go's %v would, cut after nccl.MaxQuote
// bytes (with "…"): a shared (memoised) pickle list can stand for billions
// of values, so it walks only as much of the value as it prints.
func brief(v any) string {
	var b strings.Builder
	if !writeBrief(&b, v) {
		return nccl.Cut(b.String()) + "…"
	}
	return b.String()
}

// writeBrief appends v; false once nccl.MaxQuote bytes are written.
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
			if b.WriteString(strconv.Itoa(int(r))); b.Len() > nccl.MaxQuote {
				return false
			}
		}
		b.WriteByte(']')
	case map[string]any:
		fmt.Fprintf(b, "a dict of %d keys", len(x))
	case string:
		b.WriteString(nccl.Cut(x))
		return len(x) <= nccl.MaxQuote && b.Len() <= nccl.MaxQuote
	default:
		fmt.Fprint(b, x)
	}
	return b.Len() <= nccl.MaxQuote
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
	return b.Len() <= nccl.MaxQuote
}
