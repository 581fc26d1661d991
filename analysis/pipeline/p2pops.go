package pipeline

import (
	"cmp"
	"regexp"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// pass is one pass being rebuilt from the transfers around it: from is the
// end of its input receive and to the start of its output send, -1 when it
// has none (stage 0's forwards read data, the last stage's backwards start
// from the loss).
type pass struct {
	phase    Phase
	from, to int64
}

// p2pOps rebuilds rank r's passes from its pipeline transfers: every send
// ends the pass that produced it (a send to s+1 a forward, to s−1 a
// backward) and every receive is the input of one pass (from s−1 a
// forward, from s+1 a backward), each phase consuming its inputs in order.
// The passes are merged in time order; a pass starts at its input's end or
// the previous pass's end, whichever is later, and a pass without a send
// ends where the next one starts. Where two passes meet with neither edge
// (the last stage's forward runs straight into the same microbatch's
// backward; stage 0's backward into the next forward) the cut is placed at
// the kernel names (cut).
func p2pOps(t *model.Trace, r int32, ms []marker, g Geometry) []Op {
	ks := computeKernels(t, r)
	ps := merge(ks, phasePasses(ms, g, PhaseFwd), phasePasses(ms, g, PhaseBwd))
	var ops []Op
	prevEnd := int64(-1 << 62)
	for k, p := range ps {
		start := max(p.from, prevEnd)
		end := p.to
		if end < 0 {
			end = nextStart(ps, k)
		}
		if p.from < 0 && k > 0 && ps[k-1].to < 0 {
			start = cut(ks, ops[len(ops)-1].Start, end, ops[len(ops)-1].Phase)
			ops[len(ops)-1].End = start
		}
		ops = append(ops, Op{Phase: p.phase, Micro: -1, Chunk: -1, Start: start, End: max(end, start)})
		prevEnd = max(end, start)
	}
	return snap(ks, ops)
}

// merge interleaves the forward and backward passes, each list in order.
// A pass known by its send goes before one known by its input when the
// send comes first; when the input came first (it may have waited while
// the other pass ran), the names of the kernels the GPU ran right after
// the input arrived decide (busyBackward); never more backwards than
// forwards.
func merge(ks []kernel, fs, bs []pass) []pass {
	out := make([]pass, 0, len(fs)+len(bs))
	nf, nb := 0, 0
	for len(fs) > 0 || len(bs) > 0 {
		takeF := len(bs) == 0 || len(fs) > 0 && fFirst(ks, fs[0], bs[0], nf, nb)
		if takeF {
			out, fs, nf = append(out, fs[0]), fs[1:], nf+1
		} else {
			out, bs, nb = append(out, bs[0]), bs[1:], nb+1
		}
	}
	return out
}

// fFirst decides whether forward f runs before backward b.
func fFirst(ks []kernel, f, b pass, nf, nb int) bool {
	if nb >= nf {
		return true // a backward needs its forward first
	}
	switch {
	case f.to >= 0 && b.to >= 0:
		return f.to < b.to // both end at their sends
	case f.from >= 0 && b.from >= 0:
		return f.from < b.from // both start at their inputs
	case f.from >= 0 && b.to >= 0 && f.from < b.to:
		return !busyBackward(ks, f.from, b.to) // the forward's input came while the backward may have run
	}
	return key(f) < key(b)
}

// lookahead is how many kernels after a forward's input arrived are read
// for a backward-named one: a backward pass names one kernel in a few
// (flash_bwd, layer-norm and activation gradients), a forward none.
const lookahead = 6

// busyBackward reports whether the GPU was running a backward when ts came
// (a backward-named kernel among the one running then and the next few
// before end).
func busyBackward(ks []kernel, ts, end int64) bool {
	i, _ := slices.BinarySearchFunc(ks, ts, func(k kernel, v int64) int { return cmp.Compare(k.start, v) })
	i = max(i-1, 0)
	for n := 0; i < len(ks) && n < lookahead && ks[i].start < end; i, n = i+1, n+1 {
		if ks[i].bwd {
			return true
		}
	}
	return false
}

// key orders passes: by the send that ends them, else the input that
// starts them.
func key(p pass) int64 {
	if p.to >= 0 {
		return p.to
	}
	return p.from
}

// nextStart is where the pass after ps[k] can start: its input's end, or
// for a pass without input the send that ends it (the cut is made later);
// the end of time after the last.
func nextStart(ps []pass, k int) int64 {
	if k+1 == len(ps) {
		return 1 << 62
	}
	n := ps[k+1]
	if n.from >= 0 {
		return n.from
	}
	return n.to
}

// phasePasses pairs one phase's inputs and outputs in order: the i-th
// send of the phase ends the pass that consumed its i-th receive. When the
// counts differ (the ends of an interleaved pipeline, where only some model
// chunks send or receive over the ring) each pass keeps the edge of the
// longer list only.
func phasePasses(ms []marker, g Geometry, ph Phase) []pass {
	var in, out []int64
	for _, m := range ms {
		if forwardEdge(m, g) != (ph == PhaseFwd) {
			continue
		}
		if m.send {
			out = append(out, m.start)
		} else {
			in = append(in, m.end)
		}
	}
	ps := make([]pass, max(len(in), len(out)))
	for i := range ps {
		ps[i] = pass{ph, -1, -1}
		if len(in) == len(ps) {
			ps[i].from = in[i]
		}
		if len(out) == len(ps) {
			ps[i].to = out[i]
		}
	}
	return ps
}

// forwardEdge reports whether transfer m is a forward pass's edge: a
// receive from the stage before (on stage 0, the ring from the last) or a
// send to the stage after. With two stages a peer is both: stage 0 sends
// activations and receives gradients.
func forwardEdge(m marker, g Geometry) bool {
	if g.P == 2 {
		return m.send == (g.Stage == 0)
	}
	if m.send {
		return m.peerStage == (g.Stage+1)%g.P
	}
	return m.peerStage == (g.Stage+g.P-1)%g.P
}

// kernel is one compute kernel's span.
type kernel struct {
	start, end int64
	bwd        bool // its name hints at a backward (bwdName)
}

// bwdName is the weak hint kernel names give: flash_bwd…, …_backward…,
// …Backward…, …_grad… . It only places a cut between two passes whose
// phases the transfers already gave.
var bwdName = regexp.MustCompile(`(?i)bwd|backward|grad`)

func computeKernels(t *model.Trace, r int32) []kernel {
	lo, hi := t.Events.RankRange(r)
	var out []kernel
	for i := lo; i < hi; i++ {
		if t.Events.Kind[i] == model.KindCompute {
			out = append(out, kernel{t.Events.Start[i], t.Events.Start[i] + t.Events.Dur[i], bwdName.MatchString(t.Name(i))})
		}
	}
	return out
}

// cut places the boundary between a pass of phase a and the next (of the
// other phase) inside [lo, hi): at the first backward-named kernel when a forward
// meets a backward, after the last one when a backward meets a forward;
// without such names, a third of the way (a backward takes about twice its
// forward).
func cut(ks []kernel, lo, hi int64, a Phase) int64 {
	i, _ := slices.BinarySearchFunc(ks, lo, func(k kernel, v int64) int { return cmp.Compare(k.start, v) })
	at := int64(-1)
	for ; i < len(ks) && ks[i].start < hi; i++ {
		if a == PhaseFwd && ks[i].bwd {
			return ks[i].start
		}
		if a != PhaseFwd && ks[i].bwd {
			at = ks[i].end
		}
	}
	if at >= 0 {
		return at
	}
	if a == PhaseFwd {
		return lo + (hi-lo)/3
	}
	return lo + 2*(hi-lo)/3
}

// snap trims each op to the compute kernels inside it.
func snap(ks []kernel, ops []Op) []Op {
	out := ops[:0]
	for _, op := range ops {
		i, _ := slices.BinarySearchFunc(ks, op.Start, func(k kernel, v int64) int { return cmp.Compare(k.start, v) })
		s, e := int64(-1), int64(-1)
		for ; i < len(ks) && ks[i].start < op.End; i++ {
			if s < 0 {
				s = ks[i].start
			}
			e = max(e, min(ks[i].end, op.End))
		}
		if s >= 0 && e > s {
			out = append(out, Op{Phase: op.Phase, Micro: -1, Chunk: -1, Start: s, End: e})
		}
	}
	return out
}
