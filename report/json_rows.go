package report

import (
	"encoding/json"
	"strconv"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// The timeline's rows are most of a large Result's JSON (a warm 64-rank
// run's: 1.8 of 3.8 MB). appendRow writes one row indented, as
// indentFrom(json.Marshal(row)) does, straight from its fields: no
// reflection and no second pass over the bytes. Strings that
// encoding/json would escape go through it (jsonString).

// appendRow appends row r indented at depth (the depth of the rows
// array's elements), from its '{' to its '}'.
func appendRow(dst []byte, r *result.TimelineRow, depth int) []byte {
	in := depth + 1
	dst = newline(append(dst, '{'), in)
	dst = strconv.AppendInt(append(dst, `"rank": `...), int64(r.Rank), 10)
	dst = newline(append(dst, ','), in)
	dst = strconv.AppendInt(append(dst, `"stage": `...), int64(r.Stage), 10)
	dst = newline(append(dst, ','), in)
	dst = append(dst, `"segments": `...)
	switch {
	case r.Segments == nil:
		dst = append(dst, "null"...)
	case len(r.Segments) == 0:
		dst = append(dst, "[]"...)
	default:
		dst = append(dst, '[')
		for k := range r.Segments {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = appendSegment(newline(dst, in+1), &r.Segments[k], in+1)
		}
		dst = append(newline(dst, in), ']')
	}
	return append(newline(dst, depth), '}')
}

// appendSegment appends segment s indented at depth, from '{' to '}'.
func appendSegment(dst []byte, s *result.Segment, depth int) []byte {
	in := depth + 1
	dst = newline(append(dst, '{'), in)
	dst = strconv.AppendInt(append(dst, `"start_ns": `...), s.StartNs, 10)
	dst = newline(append(dst, ','), in)
	dst = strconv.AppendInt(append(dst, `"end_ns": `...), s.EndNs, 10)
	dst = newline(append(dst, ','), in)
	dst = jsonString(append(dst, `"category": `...), s.Category)
	if s.Micro != 0 {
		dst = newline(append(dst, ','), in)
		dst = strconv.AppendInt(append(dst, `"micro": `...), int64(s.Micro), 10)
	}
	if s.Phase != "" {
		dst = newline(append(dst, ','), in)
		dst = jsonString(append(dst, `"phase": `...), s.Phase)
	}
	return append(newline(dst, depth), '}')
}

// jsonString appends s quoted as json.Marshal quotes it: as it is when
// every byte is printable ASCII that it does not escape, else through
// json.Marshal (escapes, HTML-safe <, > and &, invalid UTF-8, U+2028).
func jsonString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // a string always encodes
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// appendRows appends rows, each after a comma and a newline at depth (the
// rows array's elements' depth): the indented bytes of ",r_0,...,r_n-1".
func appendRows(dst []byte, rows []result.TimelineRow, depth int) []byte {
	for k := range rows {
		dst = appendRow(newline(append(dst, ','), depth), &rows[k], depth)
	}
	return dst
}
