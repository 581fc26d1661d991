package pipeline

import (
	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/model"
)

// Rank is one rank's pipeline work over the whole trace.
type Rank struct {
	Source     Source
	Convention string          // the annotation convention, with FromAnnotations
	Ops        []Op            // in start order
	Links      map[int][]int64 // starts of the transfers with each neighbouring stage
	Ring       []int64         // stage 0 only, p > 2: start of each transfer with stage p−1 (a later model chunk's activation in, its gradient out)
}

// Cue names the source for the Result: "annotations (PP:<s><F|B|I|W><mb>)",
// "autograd", "pp-p2p" or "".
func (rk *Rank) Cue() string {
	if rk.Source == FromAnnotations {
		return rk.Source.String() + " (" + rk.Convention + ")"
	}
	return rk.Source.String()
}

// ForRank finds rank r's ops from the most trusted cue it carries:
// per-microbatch annotations, else the autograd context of its launches,
// else the directions of its pipeline send/recv kernels.
func ForRank(t *model.Trace, r int32, g Geometry) Rank {
	if g.P <= 1 {
		return Rank{}
	}
	ms := p2pMarkers(t, r, g)
	rk := Rank{Ring: ring(ms, g)}
	if ops, conv := annotationOps(t, r); len(ops) > 0 {
		rk.Source, rk.Convention, rk.Ops = FromAnnotations, conv, ops
		return rk
	}
	rk.Links = links(ms)
	if bwd, cue := launchContexts(t, r); cue {
		if ops := autogradOps(t, r, bwd); len(ops) > 0 {
			rk.Source, rk.Ops = FromAutograd, ops
			return rk
		}
	}
	if rk.Ops = p2pOps(t, r, ms, g); len(rk.Ops) > 0 {
		rk.Source = FromP2P
	}
	return rk
}

// links lists the starts of the transfers with each neighbouring stage.
func links(ms []marker) map[int][]int64 {
	out := map[int][]int64{}
	for _, m := range ms {
		out[m.peerStage] = append(out[m.peerStage], m.start)
	}
	return out
}

// LinkCount is the number of transfers with stage peer that start in w.
func (rk *Rank) LinkCount(w measure.Interval, peer int) int {
	n := 0
	for _, s := range rk.Links[peer] {
		if s >= w.Start && s < w.End {
			n++
		}
	}
	return n
}

// ring lists stage 0's transfers with stage p−1 (p > 2): an interleaved
// pipeline's later model chunks take their activations in and send their
// gradients back over this link, one of each per microbatch and chunk, so
// their count does not hang on knowing which way each one went.
func ring(ms []marker, g Geometry) []int64 {
	var out []int64
	for _, m := range ms {
		if g.P > 2 && g.Stage == 0 && m.peerStage == g.P-1 {
			out = append(out, m.start)
		}
	}
	return out
}

// In returns the ops that start inside w, and the ring recvs there. Ops
// inferred from the autograd context or the transfers are clipped to w and
// end at the step's last backward.
func (rk *Rank) In(w measure.Interval) ([]Op, int) {
	var ops []Op
	inferred := rk.Source == FromAutograd || rk.Source == FromP2P
	for _, op := range rk.Ops {
		if inferred && op.End > w.Start && op.Start < w.End {
			// a pass cut from work alone may run on from the last step's
			// optimizer tail: each window keeps its own part
			op.Start, op.End = max(op.Start, w.Start), min(op.End, w.End)
		}
		if op.Start >= w.Start && op.Start < w.End {
			ops = append(ops, op)
		}
	}
	if inferred {
		ops = dropTail(ops)
	}
	n := 0
	for _, s := range rk.Ring {
		if s >= w.Start && s < w.End {
			n++
		}
	}
	return ops, n / 2
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
		if op.Phase.backward() {
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
		} else if op.Phase.backward() {
			b = append(b, iv)
		}
	}
	return measure.IntersectLen(compute, measure.Normalize(f)), measure.IntersectLen(compute, measure.Normalize(b))
}
