package analysis

import (
	"errors"
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/analysis/pipeline"
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
	parallel(len(r.ranks), func(i int) { errs[i] = r.measureRank(src, &r.ranks[i], &in[i], p) })
	return errors.Join(errs...)
}

// measureRank is rankPass for one rank.
func (r *run) measureRank(src RankSource, rr *rankRun, in *rankIn, p int) error {
	v, err := src.RankEvents(rr.rank)
	if err != nil {
		return fmt.Errorf("rank %d: %w", rr.rank, err)
	}
	rr.act = measure.RankActivity(v, rr.rank)
	rr.act.SplitWaits(v, in.eventWaits(v.Events.Len()))
	for _, w := range r.steps.ByRank[rr.rank] {
		rr.figs = append(rr.figs, rr.act.Measure(measure.Interval{Start: w.Start, End: w.End}))
	}
	rr.kernels = r.rankKernels(v, rr.rank)
	rr.pipe = pipeline.ForRank(v, rr.rank, pipeline.Geometry{Stage: rr.stage, P: p, StageOf: r.stageOf, Peers: in.peers})
	return nil
}

// kernelSum is one kernel name's count and time on one rank.
type kernelSum struct {
	n   int64
	dur int64
}

// rankKernels sums the GPU kernels (compute, communication, memcpy,
// memset) of rank's view that start in one of its analysed steps, by name id.
func (r *run) rankKernels(v *model.Trace, rank int32) map[int32]kernelSum {
	out := map[int32]kernelSum{}
	ev := &v.Events
	for i := range ev.Len() {
		k := ev.Kind[i]
		if !k.OnGPU() || k == model.KindGPUAnnotation || r.stepOf(rank, ev.Start[i]) < 0 {
			continue
		}
		s := out[ev.Name[i]]
		s.n, s.dur = s.n+1, s.dur+ev.Dur[i]
		out[ev.Name[i]] = s
	}
	return out
}
