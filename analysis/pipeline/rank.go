package pipeline

import (
	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/ingest/model"
)

// Rank is one rank's pipeline work over the whole trace.
type Rank struct {
	Source Source
	Ops    []Op    // in start order
	Ring   []int64 // stage 0 only, p > 2: start of each recv from stage p−1 (activations of a later model chunk)
}

// ForRank finds rank r's ops: from annotations when there are any, else
// from its pipeline send/recv kernels.
func ForRank(t *model.Trace, r int32, g Geometry) Rank {
	if g.P <= 1 {
		return Rank{}
	}
	if ops := annotationOps(t, r); len(ops) > 0 {
		return Rank{Source: FromAnnotations, Ops: ops}
	}
	ms := p2pMarkers(t, r, g)
	rk := Rank{Ops: p2pOps(ms, g)}
	if len(rk.Ops) > 0 {
		rk.Source = FromP2P
	}
	for _, m := range ms {
		if g.P > 2 && g.Stage == 0 && !m.send && m.peerStage == g.P-1 {
			rk.Ring = append(rk.Ring, m.start)
		}
	}
	return rk
}

// In returns the ops that start inside w, and the ring recvs there.
func (rk *Rank) In(w measure.Interval) ([]Op, int) {
	var ops []Op
	for _, op := range rk.Ops {
		if op.Start >= w.Start && op.Start < w.End {
			ops = append(ops, op)
		}
	}
	n := 0
	for _, s := range rk.Ring {
		if s >= w.Start && s < w.End {
			n++
		}
	}
	return ops, n
}

// Split divides the bubble intervals of window w into fill/drain (before
// the first backward starts or after the last forward ends) and steady
// state. With no ops, ok is false.
func Split(bubbles measure.Set, ops []Op, w measure.Interval) (fillDrain, steady int64, ok bool) {
	if len(ops) == 0 {
		return 0, bubbles.Len(), false
	}
	firstB, lastF := w.End, w.Start
	for _, op := range ops {
		if op.Phase == PhaseBwd {
			firstB = min(firstB, op.Start)
		} else if op.Phase == PhaseFwd {
			lastF = max(lastF, op.End)
		}
	}
	edges := measure.Normalize([]measure.Interval{{Start: w.Start, End: firstB}, {Start: lastF, End: w.End}})
	fillDrain = measure.IntersectLen(bubbles, edges)
	return fillDrain, bubbles.Len() - fillDrain, true
}

// PhaseCompute returns the compute time inside forward and inside backward
// ops, within w.
func PhaseCompute(compute measure.Set, ops []Op, w measure.Interval) (fwd, bwd int64) {
	var f, b []measure.Interval
	for _, op := range ops {
		iv := measure.Interval{Start: max(op.Start, w.Start), End: min(op.End, w.End)}
		if op.Phase == PhaseFwd {
			f = append(f, iv)
		} else if op.Phase == PhaseBwd {
			b = append(b, iv)
		}
	}
	return measure.IntersectLen(compute, measure.Normalize(f)), measure.IntersectLen(compute, measure.Normalize(b))
}
