package tui

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/tui/explore"
)

// TestCriticalPathOverlay: with a replayed Result, c marks on each lane
// exactly the cells of that rank's critical-path ops, and again hides them.
func TestCriticalPathOverlay(t *testing.T) {
	tr := defaultJob().Trace
	res, d, err := analysis.AnalyzeDetail(context.Background(), tr, analysis.Options{WhatIf: true})
	if err != nil || res.WhatIf == nil || len(res.WhatIf.CriticalPathOps) == 0 {
		t.Fatalf("no critical path to overlay: %v", err)
	}
	m := NewLoaded(res, WithEvents(explore.Build(tr, d)))
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	m.Update(press("tab"))
	tl := m.panes[1].(*timeline)
	if tl.cur().Iteration != res.WhatIf.CriticalPathStep {
		t.Fatalf("the timeline opens on step %d, the path is of step %d", tl.cur().Iteration, res.WhatIf.CriticalPathStep)
	}
	m.Update(press("c"))
	marked := 0
	for _, rk := range res.Ranks {
		want := make([]byte, tl.cells())
		for _, op := range res.WhatIf.CriticalPathOps {
			if op.Rank == rk.Rank {
				tl.markSpan(want, op.StartNs, op.EndNs, 3)
			}
		}
		got := tl.marks(rk.Rank, false)
		for c := range want {
			if (want[c] == 3) != (c < len(got) && got[c] == 3) {
				t.Fatalf("rank %d cell %d: path mark %v, want %v", rk.Rank, c, got[c] == 3, want[c] == 3)
			}
			if want[c] == 3 {
				marked++
			}
		}
	}
	if marked == 0 {
		t.Fatal("the overlay marked no cell")
	}
	m.Update(press("c"))
	for _, rk := range res.Ranks {
		for _, v := range tl.marks(rk.Rank, false) {
			if v == 3 {
				t.Fatalf("rank %d: path marks after c hid the overlay", rk.Rank)
			}
		}
	}
}
