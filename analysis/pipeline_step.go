package analysis

import (
	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/analysis/par"
	"github.com/tpptrace/tpptrace/analysis/pipeline"
	"github.com/tpptrace/tpptrace/analysis/result"
)

// pipelineStep reads each rank's forward/backward ops (found in its pass,
// rankPass), votes on the schedule, splits bubbles into fill/drain and steady state, and builds
// the per-stage table.
func pipelineStep(r *run) error {
	p := r.prep.layout.PP
	var votes []pipeline.Schedule
	perRank := make([][]pipeline.Schedule, len(r.ranks))
	par.Each(len(r.ranks), func(i int) { perRank[i] = r.rankPipeline(&r.ranks[i], &r.meas.ranks[i], p) })
	for _, v := range perRank {
		votes = append(votes, v...)
	}
	sched := pipeline.Schedule{Name: pipeline.NoPipeline}
	if p > 1 {
		sched = pipeline.Vote(votes)
	}
	r.sched.name, r.sched.m = sched.Name, sched.M
	if sched.V > 1 {
		r.sched.v = sched.V
	}
	r.sched.stages = r.stages(pipeline.IdealBubble(p, sched.M, sched.V))
	r.sched.evidence = r.scheduleEvidence(p)
	return nil
}

// scheduleEvidence reads each stage's pass order from its first rank with
// ops, in its first analysed step.
func (r *run) scheduleEvidence(p int) []result.StageOrder {
	if p <= 1 {
		return nil
	}
	var out []result.StageOrder
	for s := range p {
		if o, ok := r.stageOrder(s, p); ok {
			out = append(out, o)
		}
	}
	return out
}

func (r *run) stageOrder(s, p int) (result.StageOrder, bool) {
	for i := range r.ranks {
		rr := &r.ranks[i]
		if rr.stage != s || len(rr.ops) == 0 || len(rr.ops[0]) == 0 {
			continue
		}
		ops := rr.ops[0]
		f, b, w := pipeline.Count(ops)
		_, ring := rr.pipe.In(rr.figs[0].Window)
		g := pipeline.Geometry{Stage: s, P: p, StageOf: r.stageOf}
		return result.StageOrder{Stage: s, Rank: int(rr.rank), Forwards: f, Backwards: b, Warmup: w,
			Schedule: pipeline.Detect(ops, ring, g).Name, Cue: rr.pipe.Cue()}, true
	}
	return result.StageOrder{}, false
}

// rankPipeline fills one rank's fill/drain split and returns its
// per-step schedule detections, from the ops its pass found (rankPass).
func (r *run) rankPipeline(rr *rankRun, s *result.RankStats, p int) []pipeline.Schedule {
	g := pipeline.Geometry{Stage: rr.stage, P: p, StageOf: r.stageOf}
	s.PhaseSource = rr.pipe.Cue()
	var out []pipeline.Schedule
	var fd, st int64
	for _, f := range rr.figs {
		ops, ring := rr.pipe.In(f.Window)
		rr.ops = append(rr.ops, ops)
		a, b, _ := pipeline.Split(f.Bubbles, ops, f.Window)
		fd, st = fd+a, st+b
		if len(ops) > 0 {
			out = append(out, r.detect(rr, ops, ring, g, f.Window))
		}
	}
	n := int64(max(len(rr.figs), 1))
	s.BubbleFillDrainNs, s.BubbleSteadyNs = fd/n, st/n
	return out
}

func (r *run) stageOf(rank int32) int {
	i := r.t.FindRank(rank)
	if i < 0 {
		return -1
	}
	return int(r.t.Ranks[i].Coord.PP)
}

// stages averages the ranks of each stage.
func (r *run) stages(ideal float64) []result.StageStats {
	out := make([]result.StageStats, r.prep.layout.PP)
	for s := range out {
		out[s] = result.StageStats{Stage: s, IdealBubbleFraction: ideal, ExposedNs: map[string]int64{}}
	}
	for i := range r.ranks {
		rr, rs := &r.ranks[i], &r.meas.ranks[i]
		if rr.stage >= len(out) {
			continue
		}
		st := &out[rr.stage]
		st.Ranks = append(st.Ranks, rs.Rank)
		st.ComputeNs += rs.ComputeNs
		st.BubbleNs += rs.BubbleNs
		st.BubbleFraction += rs.BubbleFraction
		for k, v := range rs.ExposedNs {
			st.ExposedNs[k] += v
		}
		fwd, bwd := r.phaseCompute(rr)
		st.ForwardNs, st.BackwardNs = st.ForwardNs+fwd, st.BackwardNs+bwd
	}
	for s := range out {
		averageStage(&out[s])
	}
	return out
}

func (r *run) phaseCompute(rr *rankRun) (fwd, bwd int64) {
	for k, f := range rr.figs {
		a, b := pipeline.PhaseCompute(rr.act.Compute.Clip(f.Window.Start, f.Window.End), rr.ops[k], measure.Interval(f.Window))
		fwd, bwd = fwd+a, bwd+b
	}
	n := int64(max(len(rr.figs), 1))
	return fwd / n, bwd / n
}

func averageStage(st *result.StageStats) {
	n := int64(len(st.Ranks))
	if n == 0 {
		return
	}
	st.ComputeNs, st.BubbleNs, st.ForwardNs, st.BackwardNs = st.ComputeNs/n, st.BubbleNs/n, st.ForwardNs/n, st.BackwardNs/n
	st.BubbleFraction /= float64(n)
	for k := range st.ExposedNs {
		st.ExposedNs[k] /= n
	}
}

// detect reads one rank's schedule in one step; passes cut from transfers
// alone take m and v from the transfer counts (pipeline.FromLinks).
func (r *run) detect(rr *rankRun, ops []pipeline.Op, ring int, g pipeline.Geometry, w measure.Interval) pipeline.Schedule {
	s := pipeline.Detect(ops, ring, g)
	if rr.pipe.Source != pipeline.FromP2P {
		return s
	}
	n := func(stage int) int { return rr.pipe.LinkCount(w, (stage+g.P)%g.P) }
	return pipeline.FromLinks(s, g, n(g.Stage-1), n(g.Stage+1), n(g.P-1))
}
