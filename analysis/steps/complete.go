package steps

import (
	"maps"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/tpptrace/tpptrace/model"
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
func dropCutLast(v *views, s *Steps) {
	if len(s.Iters) == 0 {
		return
	}
	last := len(s.Iters) - 1
	if !lastCut(v, s.ByRank, last) {
		return
	}
	s.Dropped = append(s.Dropped, s.Iters[last])
	slices.Sort(s.Dropped)
	s.Iters = s.Iters[:last]
	for q := range s.ByRank {
		s.ByRank[q] = s.ByRank[q][:last]
	}
}

// lastCut reports whether window last was cut short on some rank
// (cutShort), reading the ranks side by side (views.each) and no more of
// them once one is found.
func lastCut(v *views, byRank map[int32][]Window, last int) bool {
	ranks := slices.Sorted(maps.Keys(byRank))
	var cut atomic.Bool
	v.each(ranks, cut.Load, func(i int, t *model.Trace) {
		if cutShort(t, ranks[i], byRank[ranks[i]][last]) {
			cut.Store(true)
		}
	})
	return cut.Load()
}

func cutShort(t *model.Trace, rank int32, w Window) bool {
	ev := &t.Events
	lo, hi := ev.RankRange(rank)
	launch := ev.Launches(lo, hi)
	a, state := launchesIn(t, lo, hi, w)
	for i := lo; i < hi; i++ {
		if !ev.Kind[i].OnGPU() || ev.Kind[i] == model.KindGPUAnnotation {
			continue
		}
		l := int(launch[i-lo]) - a
		ok := l >= 0 && l < len(state) && state[l] != notLaunch
		if ok {
			state[l] = launchSeen
		}
		if (ok || ev.Corr[i] < 0 && inside(w, ev.Start[i])) && ev.Start[i]+ev.Dur[i] >= w.End {
			return true
		}
	}
	return slices.Contains(state, launchUnseen)
}

// The states of a row of a window in cutShort.
const (
	notLaunch    = iota // no launch
	launchUnseen        // a launch whose GPU work is not seen yet
	launchSeen          // a launch whose GPU work is seen
)

// launchesIn returns the first row a of rank rows [lo, hi) that starts in
// w and a state per row from a on that starts in w: launchUnseen for the
// launches (runtime calls with a correlation id that launch GPU work).
func launchesIn(t *model.Trace, lo, hi int, w Window) (int, []uint8) {
	ev := &t.Events
	a, _ := slices.BinarySearch(ev.Start[lo:hi], w.Start)
	b, _ := slices.BinarySearch(ev.Start[lo:hi], w.End)
	state := make([]uint8, b-a)
	for j := range state {
		i := lo + a + j
		if ev.Kind[i] == model.KindRuntime && ev.Corr[i] >= 0 && isLaunch(t.Name(i)) {
			state[j] = launchUnseen
		}
	}
	return lo + a, state
}

func inside(w Window, x int64) bool { return x >= w.Start && x < w.End }

// isLaunch reports whether a runtime call launches GPU work (kernels,
// graphs); other calls with correlation ids (syncs, event records) do not.
func isLaunch(name string) bool { return strings.Contains(name, "Launch") }
