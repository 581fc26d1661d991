package pipeline

import (
	"slices"

	"github.com/tpptrace/tpptrace/ingest/model"
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
	gpu := kernelsByCorr(t, r)
	lo, hi := t.Events.RankRange(r)
	out := make([]Op, 0, len(cpu))
	for _, op := range cpu {
		g := Op{Phase: op.Phase, Micro: op.Micro, Chunk: op.Chunk, Start: 1 << 62, End: -1 << 62}
		for i := firstAtOrAfter(t, lo, hi, op.Start); i < hi && t.Events.Start[i] < op.End; i++ {
			k, ok := gpu[t.Events.Corr[i]]
			if t.Events.Kind[i] != model.KindRuntime || !ok {
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

func kernelsByCorr(t *model.Trace, r int32) map[int64]int {
	lo, hi := t.Events.RankRange(r)
	m := map[int64]int{}
	for i := lo; i < hi; i++ {
		if t.Events.Kind[i] == model.KindCompute && t.Events.Corr[i] >= 0 {
			m[t.Events.Corr[i]] = i
		}
	}
	return m
}

func firstAtOrAfter(t *model.Trace, lo, hi int, ts int64) int {
	i, _ := slices.BinarySearch(t.Events.Start[lo:hi], ts)
	return lo + i
}
