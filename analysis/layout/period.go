package layout

import (
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// periodSteps estimates the steps of a trace without step ranges from its
// traffic: a data-parallel group syncs once per step, so its kernels form
// one burst per step on each member (bursts split by gaps longer than half
// the longest gap), while tensor-parallel kernels run through every pass.
// The estimate is the fewest bursts any traffic class shows (the lower
// median over its groups' members: ranks whose longest gaps fall inside a
// step count more); 0 when no class has traffic.
func periodSteps(t *model.Trace, classes map[[2]int32][]int) int {
	if len(classes) == 0 {
		return 0
	}
	kernels := commKernels(t)
	best := 0
	for _, ids := range classes {
		var counts []int
		for _, c := range ids {
			for _, r := range t.Comms[c].Members {
				if n := burstCount(kernels[[2]int32{int32(c), r}]); n > 0 {
					counts = append(counts, n)
				}
			}
		}
		if len(counts) == 0 {
			continue
		}
		slices.Sort(counts)
		if m := counts[(len(counts)-1)/2]; best == 0 || m < best {
			best = m
		}
	}
	return best
}

// commKernels lists, per (communicator, rank), the [start, end) of the
// rank's kernels on it, by start.
func commKernels(t *model.Trace) map[[2]int32][][2]int64 {
	out := map[[2]int32][][2]int64{}
	ev := &t.Events
	for i := ev.NextKind(model.KindComm, 0, ev.Len()); i < ev.Len(); i = ev.NextKind(model.KindComm, i+1, ev.Len()) {
		c := ev.Coll[i]
		if c < 0 || int(c) >= t.Colls.Len() || t.Colls.Comm[c] < 0 {
			continue
		}
		k := [2]int32{t.Colls.Comm[c], ev.Rank[i]}
		out[k] = append(out[k], [2]int64{ev.Start[i], ev.Start[i] + ev.Dur[i]})
	}
	for _, ks := range out {
		slices.SortFunc(ks, func(a, b [2]int64) int { return int(a[0] - b[0]) })
	}
	return out
}

// burstCount is the number of bursts of ks: runs split by gaps longer than
// half the longest gap.
func burstCount(ks [][2]int64) int {
	if len(ks) == 0 {
		return 0
	}
	var gaps []int64
	end := ks[0][1]
	for _, k := range ks[1:] {
		gaps = append(gaps, k[0]-end)
		end = max(end, k[1])
	}
	longest := int64(0)
	for _, g := range gaps {
		longest = max(longest, g)
	}
	n := 1
	for _, g := range gaps {
		if longest > 0 && 2*g > longest {
			n++
		}
	}
	return n
}
