package steps

import (
	"sort"

	"github.com/tpptrace/tpptrace/ingest/model"
)

// assignIters sets Events.Iter: a GPU event takes the window of its launch
// (the runtime call with the same correlation id) when that call lies in a
// window, else the window holding its start; other events the window holding
// their start; events in no analysed window get -1.
func assignIters(t *model.Trace, s Steps) {
	ev := &t.Events
	for i := range ev.Iter {
		ev.Iter[i] = -1
	}
	for r, ws := range s.ByRank {
		lo, hi := ev.RankRange(r)
		launch := launches(t, lo, hi)
		for i := lo; i < hi; i++ {
			ev.Iter[i] = iterAt(ws, ev.Start[i])
			if !ev.Kind[i].OnGPU() || ev.Corr[i] < 0 {
				continue
			}
			if at, ok := launch[ev.Corr[i]]; ok {
				if it := iterAt(ws, at); it >= 0 {
					ev.Iter[i] = it
				}
			}
		}
	}
}

// launches maps correlation id → start of the runtime call in rows [lo, hi).
func launches(t *model.Trace, lo, hi int) map[int64]int64 {
	m := map[int64]int64{}
	ev := &t.Events
	for i := lo; i < hi; i++ {
		if ev.Kind[i] == model.KindRuntime && ev.Corr[i] >= 0 {
			m[ev.Corr[i]] = ev.Start[i]
		}
	}
	return m
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
