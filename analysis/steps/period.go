package steps

import "github.com/tpptrace/tpptrace/ingest/model"

// period finds steps from the once-per-step data-parallel synchronisation:
// on each rank the kernels of DP communicators (WORLD ones when no
// communicator is labelled DP) form one burst per step, bursts being
// separated by gaps longer than half the longest gap. The last kernel of
// burst k ends step k; window k is [end of burst k−1, end of burst k), so
// the part before the first burst's end (iteration 0) is incomplete and
// dropped. Ranks that disagree on the number of bursts keep the common
// prefix.
func period(t *model.Trace) map[int32][]Window {
	axis := syncAxis(t)
	if axis == model.AxisUnknown {
		return nil
	}
	out := map[int32][]Window{}
	for _, r := range activeRanks(t) {
		ends := burstEnds(t, r, axis)
		for k := 1; k < len(ends); k++ {
			out[r] = append(out[r], Window{Iter: int32(k), Start: ends[k-1], End: ends[k]})
		}
	}
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

// burstEnds returns the end of each burst of rank r's kernels on axis.
func burstEnds(t *model.Trace, r int32, axis model.Axis) []int64 {
	ks := axisKernels(t, r, axis)
	if len(ks) == 0 {
		return nil
	}
	maxGap := largestGap(ks)
	var out []int64
	end := ks[0].end
	for _, k := range ks[1:] {
		if maxGap > 0 && 2*(k.start-end) > maxGap {
			out = append(out, end)
		}
		end = max(end, k.end)
	}
	return append(out, end)
}

type span struct{ start, end int64 }

// axisKernels lists rank r's communication kernels on axis, by start.
func axisKernels(t *model.Trace, r int32, axis model.Axis) []span {
	var ks []span
	ev := &t.Events
	lo, hi := ev.RankRange(r)
	for i := lo; i < hi; i++ {
		if ev.Kind[i] == model.KindComm && commAxis(t, i) == axis {
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
