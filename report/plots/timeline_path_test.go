package plots

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

// TestTimelineDrawsTheCriticalPath: with a what-if path of the timeline's
// step the figure gains black strokes and says so in its caption; a path
// of another step is not drawn.
func TestTimelineDrawsTheCriticalPath(t *testing.T) {
	render := func(r *result.Result) (string, string) {
		f, ok := Timeline(r)
		if !ok {
			t.Fatal("no timeline")
		}
		var b bytes.Buffer
		if err := f.Render(&b, "svg"); err != nil {
			t.Fatal(err)
		}
		return b.String(), f.Caption
	}
	r := fixture.Result(fixture.Small())
	plain, _ := render(r)
	tl := r.Timeline
	row := tl.Rows[0]
	r.WhatIf = &result.WhatIf{CriticalPathStep: tl.Iteration, CriticalPathOps: []result.PathOp{
		{Rank: row.Rank, StartNs: tl.StartNs, EndNs: tl.StartNs + (tl.EndNs-tl.StartNs)/3},
		{Rank: tl.Rows[len(tl.Rows)-1].Rank, StartNs: tl.StartNs + (tl.EndNs-tl.StartNs)/2, EndNs: tl.EndNs},
	}}
	with, caption := render(r)
	black := func(s string) int { return strings.Count(s, "stroke:#000000") }
	if black(with) <= black(plain) || !strings.Contains(caption, "critical path") {
		t.Fatalf("path not drawn: %d black strokes with it, %d without; caption %q", black(with), black(plain), caption)
	}
	r.WhatIf.CriticalPathStep = tl.Iteration + 1
	if other, _ := render(r); black(other) != black(plain) {
		t.Fatal("a path of another step was drawn")
	}
}
