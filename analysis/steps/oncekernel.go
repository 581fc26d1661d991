package steps

import (
	"math"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// kernelPeriod finds steps without step ranges or a data-parallel sync (a
// pure pipeline or tensor-parallel job captured without its CPU side)
// from a kernel that runs once per step: the compute kernel name whose
// launches form the fewest bursts (runs split by gaps longer than half the
// longest), at least three, evenly spaced (the longest interval between
// bursts at most 1.5× the shortest) and spread over at least half of the
// rank's GPU time, on every rank that runs it, preferring the name that
// runs on the most ranks (the optimizer's). Step k ends with the GPU
// work that runs on after burst k (tailEnd); window k is [end of step k−1,
// end of step k), as in period.
func kernelPeriod(v *views, ranks []int32) map[int32][]Window {
	name, ok := onceKernel(v, ranks)
	if !ok {
		return nil
	}
	ws := make([][]Window, len(ranks))
	v.each(ranks, nil, func(i int, t *model.Trace) {
		ws[i] = windowsOf(stepEnds(t, ranks[i], bursts(nameKernels(t, ranks[i], name))))
	})
	return byRankOf(ranks, ws)
}

// onceKernel picks the once-per-step kernel name (kernelPeriod).
func onceKernel(v *views, ranks []int32) (int32, bool) {
	type score struct{ ranks, bursts int }
	best, bestName := score{}, int32(-1)
	for name, per := range burstCounts(v, ranks) {
		if slices.Min(per) < 3 {
			continue
		}
		s := score{len(per), slices.Max(per)}
		if s.ranks > best.ranks || s.ranks == best.ranks && (s.bursts < best.bursts || s.bursts == best.bursts && name < bestName) {
			best, bestName = s, name
		}
	}
	return bestName, bestName >= 0
}

// burstCounts lists, per compute kernel name, its burst count on each
// rank that runs it.
func burstCounts(v *views, ranks []int32) map[int32][]int {
	per := make([]map[int32]int, len(ranks))
	v.each(ranks, nil, func(i int, t *model.Trace) { per[i] = rankBursts(t, ranks[i]) })
	out := map[int32][]int{}
	for _, counts := range per {
		for name, n := range counts {
			out[name] = append(out[name], n)
		}
	}
	return out
}

// rankBursts is the burst count of each compute kernel name of rank r
// whose bursts are periodic.
func rankBursts(t *model.Trace, r int32) map[int32]int {
	by := map[int32][]span{}
	ev := &t.Events
	lo, hi := ev.RankRange(r)
	for i := lo; i < hi; i++ {
		if ev.Kind[i] == model.KindCompute {
			by[ev.Name[i]] = append(by[ev.Name[i]], span{ev.Start[i], ev.Start[i] + ev.Dur[i]})
		}
	}
	gpu := gpuSpans(t, r)
	out := map[int32]int{}
	for name, ks := range by {
		if bs := bursts(ks); periodic(bs, gpu) {
			out[name] = len(bs)
		}
	}
	return out
}

// nameKernels lists rank r's compute kernels named name, by start.
func nameKernels(t *model.Trace, r int32, name int32) []span {
	var ks []span
	ev := &t.Events
	lo, hi := ev.RankRange(r)
	for i := lo; i < hi; i++ {
		if ev.Kind[i] == model.KindCompute && ev.Name[i] == name {
			ks = append(ks, span{ev.Start[i], ev.Start[i] + ev.Dur[i]})
		}
	}
	return ks
}

// periodic reports whether bursts bs look like one per step: at least
// three, evenly spaced, and spanning at least half of the GPU's busy span.
func periodic(bs, gpu []span) bool {
	if len(bs) < 3 || len(gpu) == 0 {
		return false
	}
	lo, hi := int64(math.MaxInt64), int64(0)
	for k := 1; k < len(bs); k++ {
		d := bs[k].start - bs[k-1].start
		lo, hi = min(lo, d), max(hi, d)
	}
	span := gpu[len(gpu)-1].end - gpu[0].start
	return lo > 0 && 2*hi <= 3*lo && 2*(bs[len(bs)-1].start-bs[0].start) >= span
}
