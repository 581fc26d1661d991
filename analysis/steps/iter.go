package steps

import (
	"sort"

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
	for r, ws := range s.ByRank {
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
}

// iterAt returns the iteration of the window holding x, or -1. Windows are
// sorted by start and do not overlap.
func iterAt(ws []Window, x int64) int32 {
	i := sort.Search(len(ws), func(i int) bool { return ws[i].Start > x }) - 1
	if i >= 0 && x < ws[i].End {
		return ws[i].Iter
	}
	return -1
}
