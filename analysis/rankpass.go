package analysis

import (
	"errors"
	"fmt"
	"sync"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/analysis/par"
	"github.com/tpptrace/tpptrace/analysis/pipeline"
	"github.com/tpptrace/tpptrace/analysis/steps"
	"github.com/tpptrace/tpptrace/model"
)

// rankPass runs the per-rank steps on each rank's events alone, read from
// src, in parallel: its activity with the waits split off, its figures in
// every step window, its kernels by name and its pipeline ops. What a rank
// keeps after it is its summary (rankRun), not its events (docs/memory.md).
func (r *run) rankPass(src RankSource) error {
	p := r.prep.layout.PP
	var peers map[int]pipeline.Peer
	if p > 1 {
		var err error
		if peers, err = pipeline.MatchPeersIn(r.t, src, p, r.stageOf, r.off.Of); err != nil {
			return err
		}
	}
	in := r.rankInputs(src, peers)
	errs := make([]error, len(r.ranks))
	par.Each(len(r.ranks), func(i int) { errs[i] = r.measureRank(src, &r.ranks[i], &in[i], p) })
	return errors.Join(errs...)
}

// measureRank is rankPass for one rank.
func (r *run) measureRank(src RankSource, rr *rankRun, in *rankIn, p int) error {
	v, err := src.RankEvents(rr.rank)
	if err != nil {
		return fmt.Errorf("rank %d: %w", rr.rank, err)
	}
	rr.act = measure.RankActivity(v, rr.rank)
	rows, waits := in.rowWaits(v.Events.Len())
	rr.act.SplitWaitsAt(v, rows, waits)
	for _, w := range r.steps.ByRank[rr.rank] {
		rr.figs = append(rr.figs, rr.act.Measure(measure.Interval{Start: w.Start, End: w.End}))
	}
	rr.kernels = r.rankKernels(v, rr.rank)
	rr.pipe = pipeline.ForRank(v, rr.rank, pipeline.Geometry{Stage: rr.stage, P: p, StageOf: r.stageOf, Peers: in.peers})
	return nil
}

// kernelSum is one kernel name's count and time on one rank.
type kernelSum struct {
	id  int32 // name id
	n   int64
	dur int64
}

// rankKernels sums the GPU kernels (compute, communication, memcpy,
// memset) of rank's view that start in one of its analysed steps, by name
// id, in order of first appearance. The sums go into a table by name id
// (kernelScratch), not a map: two map updates per kernel were most of it.
func (r *run) rankKernels(v *model.Trace, rank int32) []kernelSum {
	ws := r.steps.ByRank[rank]
	ev := &v.Events
	slot := kernelScratch.Get().(*[]int32)
	defer kernelScratch.Put(slot)
	var out []kernelSum
	w := 0 // the window of the last kernel: starts mostly ascend
	for i := range ev.Len() {
		k := ev.Kind[i]
		if !k.OnGPU() || k == model.KindGPUAnnotation {
			continue
		}
		if w = windowFrom(ws, w, ev.Start[i]); w < 0 {
			w = 0
			continue
		}
		out = addKernel(out, slot, ev.Name[i], ev.Dur[i])
	}
	for _, s := range out {
		(*slot)[s.id] = 0
	}
	return out
}

// kernelScratch holds tables by name id of 1 + the index in a rankKernels
// output (0: not yet there), all 0 between uses.
var kernelScratch = sync.Pool{New: func() any { return new([]int32) }}

// addKernel adds one kernel of name id and duration dur to out, through the
// table slot (grown as the ids need).
func addKernel(out []kernelSum, slot *[]int32, id int32, dur int64) []kernelSum {
	if int(id) >= len(*slot) {
		*slot = append(*slot, make([]int32, int(id)+1-len(*slot))...)
	}
	j := (*slot)[id] - 1
	if j < 0 {
		j = int32(len(out))
		out = append(out, kernelSum{id: id})
		(*slot)[id] = j + 1
	}
	out[j].n++
	out[j].dur += dur
	return out
}

// windowFrom is windowAt(ws, ts), trying window w first.
func windowFrom(ws []steps.Window, w int, ts int64) int {
	if w < len(ws) && ws[w].Start <= ts && ts < ws[w].End {
		return w
	}
	return windowAt(ws, ts)
}
