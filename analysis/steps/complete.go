package steps

import (
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/model"
)

// keepComplete keeps the iterations every rank has, in ascending order.
func keepComplete(found map[int32][]Window, ranks []int32) Steps {
	s := Steps{ByRank: map[int32][]Window{}}
	count := map[int32]int{}
	for _, r := range ranks {
		for _, w := range found[r] {
			count[w.Iter]++
		}
	}
	for it, n := range count {
		if n == len(ranks) {
			s.Iters = append(s.Iters, it)
		} else {
			s.Dropped = append(s.Dropped, it)
		}
	}
	slices.Sort(s.Iters)
	slices.Sort(s.Dropped)
	for _, r := range ranks {
		for _, w := range found[r] {
			if _, ok := slices.BinarySearch(s.Iters, w.Iter); ok {
				s.ByRank[r] = append(s.ByRank[r], w)
			}
		}
	}
	return s
}

// dropCutLast drops the last iteration when the capture cut it short on
// some rank: a kernel launched in its window is missing from the trace, or
// its GPU work runs to or past the window's end (a complete step ends with a
// host synchronisation after its GPU work).
func dropCutLast(t *model.Trace, s *Steps) {
	if len(s.Iters) == 0 {
		return
	}
	last := len(s.Iters) - 1
	for r, ws := range s.ByRank {
		if cutShort(t, r, ws[last]) {
			s.Dropped = append(s.Dropped, s.Iters[last])
			slices.Sort(s.Dropped)
			s.Iters = s.Iters[:last]
			for q := range s.ByRank {
				s.ByRank[q] = s.ByRank[q][:last]
			}
			return
		}
	}
}

func cutShort(t *model.Trace, rank int32, w Window) bool {
	ev := &t.Events
	lo, hi := ev.RankRange(rank)
	launched := launchedIn(t, lo, hi, w)
	for i := lo; i < hi; i++ {
		if !ev.Kind[i].OnGPU() || ev.Kind[i] == model.KindGPUAnnotation {
			continue
		}
		seen, ok := launched[ev.Corr[i]]
		if ok && !seen {
			launched[ev.Corr[i]] = true
		}
		if (ok || ev.Corr[i] < 0 && inside(w, ev.Start[i])) && ev.Start[i]+ev.Dur[i] >= w.End {
			return true
		}
	}
	for _, seen := range launched {
		if !seen {
			return true
		}
	}
	return false
}

// launchedIn maps the correlation ids of the launches in w (rows [lo, hi))
// to false: not yet seen on the GPU.
func launchedIn(t *model.Trace, lo, hi int, w Window) map[int64]bool {
	ev := &t.Events
	launched := map[int64]bool{}
	for i := lo; i < hi; i++ {
		if ev.Kind[i] == model.KindRuntime && ev.Corr[i] >= 0 && inside(w, ev.Start[i]) && isLaunch(t.Name(i)) {
			launched[ev.Corr[i]] = false
		}
	}
	return launched
}

func inside(w Window, x int64) bool { return x >= w.Start && x < w.End }

// isLaunch reports whether a runtime call launches GPU work (kernels,
// graphs); other calls with correlation ids (syncs, event records) do not.
func isLaunch(name string) bool { return strings.Contains(name, "Launch") }
