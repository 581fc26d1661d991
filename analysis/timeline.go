package analysis

import (
	"slices"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/analysis/pipeline"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// timeline classifies step k of every rank into segments on the aligned clock.
func (r *run) timeline(k int) *result.Timeline {
	if k < 0 || k >= len(r.prep.iters) {
		return nil
	}
	it := r.prep.iters[k]
	tl := &result.Timeline{Iteration: it.Index, StartNs: it.StartNs, EndNs: it.StartNs + it.DurationNs}
	for i := range r.ranks {
		rr := &r.ranks[i]
		segs := classifyWindow(&rr.act, rr.figs[k].Window, rr.ops[k], r.prep.layout.PP > 1)
		off := r.off.Of(rr.rank)
		for j := range segs {
			segs[j].StartNs -= off
			segs[j].EndNs -= off
		}
		tl.Rows = append(tl.Rows, result.TimelineRow{Rank: int(rr.rank), Stage: rr.stage, Segments: segs})
	}
	return tl
}

// cursor walks a Set with ascending queries.
type cursor struct {
	s Set
	j int
}

// Set is measure.Set, shortened for this file.
type Set = measure.Set

func (c *cursor) covers(t int64) bool {
	for c.j < len(c.s) && c.s[c.j].End <= t {
		c.j++
	}
	return c.j < len(c.s) && c.s[c.j].Start <= t
}

// layer is one timeline category and the activity that fills it; the
// first layer covering an instant names it.
type layer struct {
	cat string
	set Set
}

// layers lists the categories in priority order: compute, then
// communication that is not pipeline, then the PP transfer and the PP wait
// for the neighbour (the bubble with a send/recv posted), then copies.
func layers(a *measure.Activity) []layer {
	other := Set(nil)
	for ax := range a.Comm {
		switch model.Axis(ax) {
		case model.AxisTP, model.AxisPP, model.AxisCP, model.AxisEP, model.AxisA2A:
		default:
			other = measure.Union(other, a.Comm[ax])
		}
	}
	pp := model.AxisPP
	return []layer{{vocab.CatCompute, a.Compute}, {vocab.CatTPExposed, a.Comm[model.AxisTP]}, {vocab.CatDPExposed, other},
		{vocab.CatCPExposed, a.Comm[model.AxisCP]}, {vocab.CatEPExposed, a.Comm[model.AxisEP]}, {vocab.CatA2AExposed, a.Comm[model.AxisA2A]},
		{vocab.CatPPExposed, a.Transfer[pp]}, {vocab.CatPPWait, measure.Subtract(a.Comm[pp], a.Transfer[pp])},
		{vocab.CatMemcpy, a.Memcpy}}
}

// classifyWindow splits window w into runs of one category, own clock.
func classifyWindow(a *measure.Activity, w measure.Interval, ops []pipeline.Op, pp bool) []result.Segment {
	ls := layers(a)
	sets := make([]Set, len(ls))
	cs := make([]cursor, len(ls))
	for i := range ls {
		sets[i] = ls[i].set.Clip(w.Start, w.End)
		cs[i].s = sets[i]
	}
	cuts := boundaries(w, sets)
	idle := vocab.CatIdle
	if pp {
		idle = vocab.CatBubble
	}
	var out []result.Segment
	for i := 0; i+1 < len(cuts); i++ {
		cat := idle
		for c := range cs {
			if cs[c].covers(cuts[i]) {
				cat = ls[c].cat
				break
			}
		}
		out = appendSegment(out, result.Segment{StartNs: cuts[i], EndNs: cuts[i+1], Category: cat}, ops)
	}
	return out
}

func boundaries(w measure.Interval, sets []Set) []int64 {
	cuts := []int64{w.Start, w.End}
	for _, s := range sets {
		for _, iv := range s {
			cuts = append(cuts, iv.Start, iv.End)
		}
	}
	slices.Sort(cuts)
	return slices.Compact(cuts)
}

// appendSegment adds seg, tagging compute with the phase and microbatch of
// the op holding it, and merges it with the previous segment when alike.
func appendSegment(out []result.Segment, seg result.Segment, ops []pipeline.Op) []result.Segment {
	if seg.Category == vocab.CatCompute {
		for _, op := range ops {
			if op.Start <= seg.StartNs && seg.StartNs < op.End {
				seg.Phase, seg.Micro = op.Phase.String(), int(max(op.Micro, 0))
				break
			}
		}
	}
	if n := len(out); n > 0 && out[n-1].EndNs == seg.StartNs && out[n-1].Category == seg.Category &&
		out[n-1].Phase == seg.Phase && out[n-1].Micro == seg.Micro {
		out[n-1].EndNs = seg.EndNs
		return out
	}
	return append(out, seg)
}
