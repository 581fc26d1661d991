package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// withTimeline is fixed() with a timeline of the given rows, segments with
// and without the omitempty fields, and strings that spell the sentinel.
func withTimeline(rows int) *result.Result {
	res := fixed()
	tl := &result.Timeline{Iteration: 4, StartNs: 100, EndNs: 9_000}
	for r := range rows {
		row := result.TimelineRow{Rank: r, Stage: r % 2}
		for s := range 3 + r%4 {
			seg := result.Segment{StartNs: int64(100 * s), EndNs: int64(100*s + 90), Category: "compute"}
			if s%2 == 1 {
				seg.Micro, seg.Phase, seg.Category = s, "bwd", "pp_wait"
			}
			row.Segments = append(row.Segments, seg)
		}
		tl.Rows = append(tl.Rows, row)
	}
	res.Timeline = tl
	mark, _ := json.Marshal(&result.Timeline{Iteration: sentinelIteration})
	res.Warnings = append(res.Warnings, `"timeline":`+string(mark), "</script> & <b>")
	return res
}

// TestSplitJSONIsMarshalIndent: the timeline shared out between two
// goroutines gives json.MarshalIndent's bytes and a newline, for every
// place the rows can be cut.
func TestSplitJSONIsMarshalIndent(t *testing.T) {
	old := splitMinSegments
	splitMinSegments = 1
	defer func() { splitMinSegments = old }()
	for _, rows := range []int{2, 3, 5, 64} {
		res := withTimeline(rows)
		want, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		pieces, err := splitJSON(res)
		if err != nil || pieces == nil {
			t.Fatalf("%d rows: split not taken (%v)", rows, err)
		}
		got := bytes.Join(pieces, nil)
		if !bytes.Equal(got, append(want, '\n')) {
			t.Fatalf("%d rows: split JSON differs from MarshalIndent:\n%s\n%s", rows, got, want)
		}
		var b bytes.Buffer
		if err := JSON(&b, res); err != nil || !bytes.Equal(b.Bytes(), got) {
			t.Fatalf("%d rows: JSON did not write the split bytes (%v)", rows, err)
		}
		for k := 1; k < rows; k++ {
			head, tail, err := splitAround(res, k)
			if err != nil || head == nil {
				t.Fatalf("%d rows cut at %d: %v", rows, k, err)
			}
			c, _ := json.Marshal(res.Timeline.Rows[k:])
			c[0] = ','
			mid, _ := indentFrom(nil, c[:len(c)-1], 3)
			joined := append(append(append([]byte(nil), head...), mid...), tail...)
			if !bytes.Equal(joined, want) {
				t.Fatalf("%d rows cut at %d: the pieces differ from MarshalIndent", rows, k)
			}
		}
	}
}

// TestSplitJSONOnlyForLargeTimelines: no timeline, one row, or fewer
// segments than splitMinSegments: one pass.
func TestSplitJSONOnlyForLargeTimelines(t *testing.T) {
	for _, res := range []*result.Result{fixed(), withTimeline(1), withTimeline(8)} {
		if b, err := splitJSON(res); b != nil || err != nil {
			t.Fatalf("split taken for %d timeline rows", len(rowsOf(res)))
		}
	}
}

func rowsOf(res *result.Result) []result.TimelineRow {
	if res.Timeline == nil {
		return nil
	}
	return res.Timeline.Rows
}

// FuzzIndentFromPieces: a compact JSON text cut before any punctuation mark
// outside strings (but not inside an empty {} or []), its pieces indented one after the other from the depth
// the last left, gives indentJSON's bytes.
func FuzzIndentFromPieces(f *testing.F) {
	for i, s := range indentCases {
		f.Add([]byte(s), uint16(i*7))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		var c bytes.Buffer
		if !json.Valid(data) || json.Compact(&c, data) != nil {
			return
		}
		src := c.Bytes()
		points := punctuation(src)
		if len(points) == 0 {
			return
		}
		at := points[int(cut)%len(points)]
		a, depth := indentFrom(nil, src[:at], 0)
		b, _ := indentFrom(nil, src[at:], depth)
		if want := indentJSON(nil, src); !bytes.Equal(append(a, b...), want) {
			t.Fatal(fmt.Sprintf("cut at %d of %q: pieces differ", at, src))
		}
	})
}

// punctuation lists the offsets of the punctuation marks outside strings,
// less the closing half of an empty {} or [].
func punctuation(src []byte) []int {
	var at []int
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '"':
			i = stringEnd(src, i) - 1
		case '{', '}', '[', ']', ',', ':':
			if i == 0 || !bytes.ContainsRune([]byte("{["), rune(src[i-1])) || src[i] != '}' && src[i] != ']' {
				at = append(at, i)
			}
		}
	}
	return at
}
