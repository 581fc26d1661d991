package steps

import (
	"github.com/tpptrace/tpptrace/analysis/par"
	"github.com/tpptrace/tpptrace/model"
)

// assignIters sets Events.Iter: a GPU event takes the window of its launch
// (the runtime call with the same correlation id, Events.Launches) when that
// call lies in a window, else the window holding its start; other events the
// window holding their start; events in no analysed window get -1.
func assignIters(t *model.Trace, s Steps) {
	ev := &t.Events
	for i := range ev.Iter {
		ev.Iter[i] = -1
	}
	ranks := make([]int32, 0, len(s.ByRank))
	for r := range s.ByRank {
		ranks = append(ranks, r)
	}
	par.Blocks(len(ranks), 1, func(a, b int) { // one rank's rows at a time: disjoint ranges of Iter
		for _, r := range ranks[a:b] {
			assignRank(ev, r, s.ByRank[r])
		}
	})
}

// assignRank is assignIters for the rows of rank r, with its windows ws.
func assignRank(ev *model.Events, r int32, ws []Window) {
	lo, hi := ev.RankRange(r)
	launch := ev.Launches(lo, hi)
	for i := lo; i < hi; i++ {
		ev.Iter[i] = iterAt(ws, ev.Start[i])
		if l := launch[i-lo]; l >= 0 {
			if it := iterAt(ws, ev.Start[l]); it >= 0 {
				ev.Iter[i] = it
			}
		}
	}
}

// iterAt returns the iteration of the window holding x, or -1. Windows are
// sorted by start and do not overlap.
func iterAt(ws []Window, x int64) int32 {
	lo, hi := 0, len(ws) // the first window starting after x (sort.Search without the closure: once per event)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ws[m].Start > x {
			hi = m
		} else {
			lo = m + 1
		}
	}
	i := lo - 1
	if i >= 0 && x < ws[i].End {
		return ws[i].Iter
	}
	return -1
}
