package analysis

import (
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/diagnose"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// runOn runs every analysis step on tr and returns the run's state.
func runOn(t *testing.T, tr *model.Trace) *run {
	t.Helper()
	r := newRun(tr, Options{})
	for _, s := range Steps {
		if err := s.Run(r); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
	}
	build(r)
	return r
}

// TestLateRankScenario: in the late-rank scenario (no pipeline) rank 5's
// host stalls before each DP bucket. The analysis recovers the truth,
// names rank 5 as the late rank (not a slow rank), last at every DP
// bucket by the planted stall, and the exposed DP finding leaves the wait
// it causes to it.
func TestLateRankScenario(t *testing.T) {
	job := sampletest.Job(t, "late-rank")
	r := runOn(t, job.Trace)
	res, want := r.res, job.Truth
	checkTruth(t, res, want)
	late, ok := findingOf(res, vocab.KindLateRank)
	if !ok || len(late.Ranks) != 1 || late.Ranks[0] != want.LateRank {
		t.Fatalf("late-rank finding %+v, want rank %d", late, want.LateRank)
	}
	i := slices.IndexFunc(r.arrivals(), func(a diagnose.Arrival) bool { return a.Rank == int32(want.LateRank) && a.Axis == "DP" })
	a := r.arrivals()[i]
	lat := slices.Sorted(slices.Values(a.Lateness))[len(a.Lateness)/2]
	if wantN := want.Config.DPBuckets * len(want.Steps); a.Last != wantN || a.Instances != wantN {
		t.Errorf("rank %d last at %d of %d DP instances, want all %d", want.LateRank, a.Last, a.Instances, wantN)
	}
	if d := float64(lat-want.Config.LateNs) / float64(want.Config.LateNs); d < -0.05 || d > 0.05 {
		t.Errorf("median lateness %d ns, want the planted %d ns within 5 %%", lat, want.Config.LateNs)
	}
	dp, _ := findingOf(res, vocab.KindExposedDP)
	exposed := meanOf(res, func(r result.RankStats) int64 { return r.ExposedNs["DP"] })
	if d := dp.CostNs + late.CostNs - exposed; d < -10 || d > 10 {
		t.Errorf("exposed DP %d + late %d ns, want the exposed DP %d", dp.CostNs, late.CostNs, exposed)
	}
	// Rank 5's DP peers wait about the stall at each bucket: (DP−1) of them.
	perStep := int64(want.Config.DPBuckets*(want.DP-1)) * want.Config.LateNs / int64(len(res.Ranks))
	if d := float64(late.CostNs-perStep) / float64(perStep); d < -0.1 || d > 0.1 {
		t.Errorf("late rank costs %d ns per step, want about %d", late.CostNs, perStep)
	}
}

// TestNoPipelineNoBubbleFinding: without a pipeline (the late-rank
// scenario, PP = 1) the idle time is no bubble: no bubble or exposed-PP
// finding, no stage imbalance, and the stage's ideal bubble is 0.
func TestNoPipelineNoBubbleFinding(t *testing.T) {
	job := sampletest.Job(t, "late-rank")
	r := runOn(t, job.Trace)
	if r.res.Layout.PP != 1 || len(r.res.Stages) != 1 || r.res.Stages[0].IdealBubbleFraction != 0 {
		t.Fatalf("layout %+v, stages %+v: want PP 1, one stage, no ideal bubble", r.res.Layout, r.res.Stages)
	}
	for _, f := range r.res.Findings {
		switch f.Kind {
		case vocab.KindBubble, vocab.KindExposedPP, vocab.KindImbalance:
			t.Errorf("finding %+v in a job without a pipeline", f)
		}
	}
	if r.res.Stages[0].BubbleNs <= 0 {
		t.Errorf("stage bubble (idle) %d ns: the late rank's stalls leave idle time", r.res.Stages[0].BubbleNs)
	}
}
