package report

import (
	"bytes"
	"encoding/json"
	"math"
	"runtime"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// splitMinSegments is the smallest timeline (in segments) whose encoding
// JSON shares out between two goroutines; below it one pass is cheaper.
var splitMinSegments = 4096

// sentinelIteration marks where the timeline goes in the encoding of the
// rest of the Result: no step has this index.
const sentinelIteration = math.MinInt64 + 0x5e471

// splitJSON is JSON's indented bytes, in pieces to write one after the
// other (not copied into one), computed on two goroutines when the
// Result has a large timeline (a warm 64-rank run's is 80 % of the
// output): the second goroutine writes the timeline's later rows
// (appendRows) while the first encodes and indents the rest and writes
// the earlier rows. The pieces join to the one-pass bytes because
// json.Marshal encodes a slice's elements, and a struct's fields, each on
// its own, indentJSON's only state at a comma or a bracket between rows
// is the depth (indentFrom), and appendRow writes a row's indented bytes.
// nil when the Result does not qualify (then JSON runs in one pass).
func splitJSON(res *result.Result) ([][]byte, error) {
	tl := res.Timeline
	if tl == nil || len(tl.Rows) < 2 || runtime.GOMAXPROCS(0) < 2 || segments(tl.Rows) < splitMinSegments {
		return nil, nil
	}
	k := splitRow(tl.Rows)
	type part struct {
		b   []byte
		err error
	}
	later := make(chan part, 1)
	go func() { // the rows after row k-1: ",r_k,...,r_n-1", at the depth of rows' elements
		later <- part{appendRows(make([]byte, 0, rowsSize(tl.Rows[k:])), tl.Rows[k:], 3), nil}
	}()
	head, tail, err := splitAround(res, k)
	p := <-later
	if err != nil || p.err != nil || head == nil {
		return nil, firstErr(err, p.err)
	}
	return [][]byte{head, p.b, append(tail, '\n')}, nil
}

// splitAround encodes and indents the Result up to its timeline's row k
// (head) and from the end of the rows on (tail); nil when the sentinel is
// not found exactly once.
func splitAround(res *result.Result, k int) (head, tail []byte, err error) {
	tl := res.Timeline
	rest := *res
	rest.Timeline = &result.Timeline{Iteration: sentinelIteration}
	c, err := json.Marshal(&rest)
	if err != nil {
		return nil, nil, err
	}
	mark, err := json.Marshal(rest.Timeline)
	if err != nil {
		return nil, nil, err
	}
	mark = append([]byte(`"timeline":`), mark...)
	at := bytes.Index(c, mark)
	if at < 0 || bytes.Index(c[at+1:], mark) >= 0 {
		return nil, nil, nil
	}
	first := *tl
	first.Rows = []result.TimelineRow{}
	t, err := json.Marshal(&first)
	if err != nil {
		return nil, nil, err
	}
	// c[:at] "timeline":{...,"rows":[   (t without its "[]}"), then r_0,...,r_k-1 (appendRow)
	h := append(append(append(make([]byte, 0, at+len(t)+16), c[:at]...), `"timeline":`...), t[:len(t)-3]...)
	head, depth := indentFrom(make([]byte, 0, 2*len(h)+rowsSize(tl.Rows[:k])), append(h, '['), 0)
	if depth != 3 {
		return nil, nil, nil
	}
	head = appendRow(head, &tl.Rows[0], 3)
	head = appendRows(head, tl.Rows[1:k], 3)
	// "]}" and the rest of the Result, at the rows' elements' depth
	r := append([]byte("]}"), c[at+len(mark):]...)
	tail, depth = indentFrom(make([]byte, 0, 2*len(r)), r, 3)
	if depth != 0 {
		return nil, nil, nil
	}
	return head, tail, nil
}

// rowsSize is about the indented size of rows at depth 3 (a segment
// about 200 bytes), to size a buffer once.
func rowsSize(rows []result.TimelineRow) int { return 200*segments(rows) + 100*len(rows) }

// segments counts the rows' segments.
func segments(rows []result.TimelineRow) int {
	n := 0
	for _, r := range rows {
		n += len(r.Segments)
	}
	return n
}

// splitRow is the first row the second goroutine writes: row 1, so that
// it writes every row but the first. The first goroutine encodes the rest
// of the Result by reflection, which costs more than all the rows written
// by appendRow (a warm 64-rank run: about 5 and 3 CPU-ms); it starts the
// rows with row 0. rows has at least 2 rows.
func splitRow([]result.TimelineRow) int { return 1 }

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
