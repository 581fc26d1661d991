package steps

import (
	"math"
	"sort"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// period finds steps from the once-per-step data-parallel synchronisation:
// on each rank the kernels of DP communicators (WORLD ones when no
// communicator is labelled DP) form one burst per step, bursts being
// separated by gaps longer than half the longest gap. Step k ends at the
// end of the first host synchronisation call (a runtime call named
// *Synchronize*) that ends after burst k and before burst k+1 starts (the
// step's closing sync, after the optimizer), else at the burst's last
// kernel. Window k is [end of step k−1, end of step k), so the part before
// the first step's end (iteration 0) is incomplete and dropped. Ranks that
// disagree on the number of bursts keep the common prefix. It returns the
// axis used.
func period(t *model.Trace, v *views, ranks []int32) (map[int32][]Window, model.Axis) {
	axis := syncAxis(t)
	if axis == model.AxisUnknown {
		return nil, axis
	}
	ws := make([][]Window, len(ranks))
	v.each(ranks, nil, func(i int, rt *model.Trace) {
		ws[i] = windowsOf(stepEnds(rt, ranks[i], burstsOf(t, ranks[i], axis)))
	})
	return byRankOf(ranks, ws), axis
}

// windowsOf is the windows between step ends: window k is [ends[k-1],
// ends[k]).
func windowsOf(ends []int64) []Window {
	var out []Window
	for k := 1; k < len(ends); k++ {
		out = append(out, Window{Iter: int32(k), Start: ends[k-1], End: ends[k]})
	}
	return out
}

// stepEnds moves each burst's end to the end of the first host sync after
// it, when that sync ends before the next burst starts.
func stepEnds(t *model.Trace, r int32, bursts []span) []int64 {
	syncs := syncEnds(t, r)
	gpu := gpuSpans(t, r)
	out := make([]int64, len(bursts))
	for k, b := range bursts {
		next := int64(math.MaxInt64)
		if k+1 < len(bursts) {
			next = bursts[k+1].start
		}
		out[k] = tailEnd(gpu, b.end, next)
		i := sort.Search(len(syncs), func(i int) bool { return syncs[i] > b.end })
		if i < len(syncs) && syncs[i] < next {
			out[k] = syncs[i]
		}
	}
	return out
}

// tailGapNs is the longest GPU idle gap inside a step's tail (the
// optimizer after the DP sync); the gap before the next step is longer.
const tailGapNs = 50_000

// tailEnd is, without a host sync to end the step (a kernel-only
// capture), the end of the GPU work that runs on from the burst's end
// (ts): the optimizer and the parameter all-gather, up to the first idle
// gap longer than tailGapNs, and never past next.
func tailEnd(gpu []span, ts, next int64) int64 {
	end := ts
	i := sort.Search(len(gpu), func(i int) bool { return gpu[i].end > ts })
	for ; i < len(gpu) && gpu[i].start < next && gpu[i].start <= end+tailGapNs; i++ {
		end = max(end, min(gpu[i].end, next))
	}
	return end
}

// gpuSpans is rank r's GPU work as disjoint spans, by start.
func gpuSpans(t *model.Trace, r int32) []span {
	var all []span
	ev := &t.Events
	lo, hi := ev.RankRange(r)
	for i := lo; i < hi; i++ {
		if ev.Kind[i].OnGPU() {
			all = append(all, span{ev.Start[i], ev.Start[i] + ev.Dur[i]})
		}
	}
	sort.Slice(all, func(a, b int) bool { return all[a].start < all[b].start })
	var out []span
	for _, s := range all {
		if n := len(out); n > 0 && s.start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, s.end)
			continue
		}
		out = append(out, s)
	}
	return out
}

// syncEnds are the ends of rank r's host synchronisation calls, ascending.
func syncEnds(t *model.Trace, r int32) []int64 {
	var out []int64
	ev := &t.Events
	lo, hi := ev.RankRange(r)
	for i := lo; i < hi; i++ {
		if ev.Kind[i] == model.KindRuntime && strings.Contains(t.Names.Get(ev.Name[i]), "Synchronize") {
			out = append(out, ev.Start[i]+ev.Dur[i])
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

// syncAxis is DP when some communicator is labelled DP, else WORLD when one
// is labelled WORLD, else unknown.
func syncAxis(t *model.Trace) model.Axis {
	best := model.AxisUnknown
	for _, c := range t.Comms {
		switch c.Axis {
		case model.AxisDP:
			return model.AxisDP
		case model.AxisWorld:
			best = model.AxisWorld
		}
	}
	return best
}

// burstsOf returns the span of each burst of rank r's kernels on axis.
func burstsOf(t *model.Trace, r int32, axis model.Axis) []span {
	return bursts(axisKernels(t, r, axis))
}

// bursts groups kernels (by start) into runs split by gaps longer than
// half the longest gap.
func bursts(ks []span) []span {
	if len(ks) == 0 {
		return nil
	}
	maxGap := largestGap(ks)
	var out []span
	cur := ks[0]
	for _, k := range ks[1:] {
		if maxGap > 0 && 2*(k.start-cur.end) > maxGap {
			out = append(out, cur)
			cur = k
		}
		cur.end = max(cur.end, k.end)
	}
	return append(out, cur)
}

type span struct{ start, end int64 }

// axisKernels lists rank r's communication kernels on axis, by start.
func axisKernels(t *model.Trace, r int32, axis model.Axis) []span {
	var ks []span
	ev := &t.Events
	lo, hi := ev.RankRange(r)
	for i := ev.NextKind(model.KindComm, lo, hi); i < hi; i = ev.NextKind(model.KindComm, i+1, hi) {
		if commAxis(t, i) == axis {
			ks = append(ks, span{ev.Start[i], ev.Start[i] + ev.Dur[i]})
		}
	}
	return ks
}

// largestGap is the longest time between a kernel's start and the end of
// all kernels before it.
func largestGap(ks []span) int64 {
	var gap int64
	end := ks[0].end
	for _, k := range ks[1:] {
		gap = max(gap, k.start-end)
		end = max(end, k.end)
	}
	return gap
}

func commAxis(t *model.Trace, i int) model.Axis {
	c := t.Events.Coll[i]
	if c < 0 || int(c) >= t.Colls.Len() {
		return model.AxisUnknown
	}
	m := t.Colls.Comm[c]
	if m < 0 || int(m) >= len(t.Comms) {
		return model.AxisUnknown
	}
	return t.Comms[m].Axis
}
