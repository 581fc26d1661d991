package pipeline

import (
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// cpuToGPU maps CPU-side ops (annotation ranges on the host) to the span of
// the GPU kernels launched inside them, linked through the correlation id of
// the launching runtime call: compute kernels only, so that a pass starts
// with its first compute kernel (docs/semantics.md). Ops that launched no
// compute are dropped.
func cpuToGPU(t *model.Trace, r int32, cpu []Op) []Op {
	if len(cpu) == 0 {
		return nil
	}
	lo, hi := t.Events.RankRange(r)
	kernel := launchedKernels(t, lo, hi)
	out := make([]Op, 0, len(cpu))
	for _, op := range cpu {
		g := Op{Phase: op.Phase, Micro: op.Micro, Chunk: op.Chunk, Start: 1 << 62, End: -1 << 62}
		for i := firstAtOrAfter(t, lo, hi, op.Start); i < hi && t.Events.Start[i] < op.End; i++ {
			k := kernel[i-lo]
			if t.Events.Kind[i] != model.KindRuntime || k < 0 {
				continue
			}
			g.Start, g.End = min(g.Start, t.Events.Start[k]), max(g.End, t.Events.Start[k]+t.Events.Dur[k])
		}
		if g.End > g.Start {
			out = append(out, g)
		}
	}
	return out
}

// launchedKernels maps each runtime call of rows [lo, hi) (entry i-lo for
// row i) to the last compute kernel it launched (Events.Launches), -1 when
// none.
func launchedKernels(t *model.Trace, lo, hi int) []int32 {
	launch := t.Events.Launches(lo, hi)
	kernel := make([]int32, hi-lo)
	for i := range kernel {
		kernel[i] = -1
	}
	for i, l := range launch {
		if l >= 0 && t.Events.Kind[lo+i] == model.KindCompute {
			kernel[int(l)-lo] = int32(lo + i)
		}
	}
	return kernel
}

func firstAtOrAfter(t *model.Trace, lo, hi int, ts int64) int {
	i, _ := slices.BinarySearch(t.Events.Start[lo:hi], ts)
	return lo + i
}
