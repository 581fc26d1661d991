package tui

import (
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// pathOps is rank's share of the what-if critical path when the overlay
// is on and the timeline shows the step the path was taken from
// (Result.WhatIf.CriticalPathOps, on the aligned clock like the lanes).
func (t *timeline) pathOps(rank int) []result.PathOp {
	w := t.c.Res.WhatIf
	if !t.path || w == nil || t.cur() == nil || t.cur().Iteration != w.CriticalPathStep {
		return nil
	}
	var out []result.PathOp
	for _, op := range w.CriticalPathOps {
		if op.Rank == rank && op.EndNs > t.from && op.StartNs < t.from+t.span {
			out = append(out, op)
		}
	}
	return out
}

// pathStatus says what the critical-path overlay shows.
func (t *timeline) pathStatus() string {
	if !t.path {
		return ""
	}
	w := t.c.Res.WhatIf
	switch {
	case w == nil || len(w.CriticalPathOps) == 0:
		return " · no critical path (analyse with --whatif)"
	case t.cur().Iteration != w.CriticalPathStep:
		return fmt.Sprintf(" · critical path of step %d (press [ or ])", w.CriticalPathStep)
	}
	return fmt.Sprintf(" · critical path: %d ops (bold italic)", len(w.CriticalPathOps))
}
