package analysis

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// mustAnalyze analyses tr with default options.
func mustAnalyze(t *testing.T, tr *model.Trace) *result.Result {
	t.Helper()
	res, err := Analyze(context.Background(), tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkTruth compares a Result with the generator's truth.
func checkTruth(t *testing.T, res *result.Result, tr samples.Truth) {
	t.Helper()
	if res.Schedule != tr.Schedule || res.Microbatches != tr.Microbatches && tr.Schedule != "none" {
		t.Errorf("schedule %s m=%d, want %s m=%d", res.Schedule, res.Microbatches, tr.Schedule, tr.Microbatches)
	}
	if res.BottleneckStage != tr.BottleneckStage {
		t.Errorf("bottleneck stage %d, want %d", res.BottleneckStage, tr.BottleneckStage)
	}
	if !sampletest.CloseTo(res.StepNs, tr.StepNs) {
		t.Errorf("step %d, want %d", res.StepNs, tr.StepNs)
	}
	if len(res.Ranks) != len(tr.Ranks) {
		t.Fatalf("%d ranks, want %d", len(res.Ranks), len(tr.Ranks))
	}
	for i, want := range tr.Ranks {
		checkRank(t, res.Ranks[i], want)
	}
	checkSlow(t, res, tr.SlowRank)
}

func checkRank(t *testing.T, got result.RankStats, want samples.TruthRank) {
	t.Helper()
	if math.Abs(got.BubbleFraction-want.BubbleFraction) > 0.01 {
		t.Errorf("rank %d: bubble fraction %.4f, want %.4f", want.Rank, got.BubbleFraction, want.BubbleFraction)
	}
	if !sampletest.CloseTo(got.ComputeNs, want.ComputeNs) || !sampletest.CloseTo(got.IdleNs, want.IdleNs) {
		t.Errorf("rank %d: compute %d idle %d, want %d %d", want.Rank, got.ComputeNs, got.IdleNs, want.ComputeNs, want.IdleNs)
	}
	if !sampletest.CloseTo(got.BubbleFillDrainNs, want.FillDrainNs) || !sampletest.CloseTo(got.BubbleSteadyNs, want.SteadyBubbleNs) {
		t.Errorf("rank %d: fill/drain %d steady %d, want %d %d", want.Rank, got.BubbleFillDrainNs, got.BubbleSteadyNs, want.FillDrainNs, want.SteadyBubbleNs)
	}
	if d := got.ClockOffsetNs - want.ClockOffsetNs; d > 20e3 || d < -20e3 {
		t.Errorf("rank %d: clock offset %d, want %d", want.Rank, got.ClockOffsetNs, want.ClockOffsetNs)
	}
	for ax, w := range want.ExposedNs {
		if !sampletest.CloseTo(got.ExposedNs[ax], w) || !sampletest.CloseTo(got.CommNs[ax], want.CommNs[ax]) {
			t.Errorf("rank %d %s: comm %d exposed %d, want %d %d", want.Rank, ax, got.CommNs[ax], got.ExposedNs[ax], want.CommNs[ax], w)
		}
	}
}

func checkSlow(t *testing.T, res *result.Result, slow int) {
	t.Helper()
	if slow < 0 {
		if len(res.SlowRanks) != 0 {
			t.Errorf("slow ranks %+v, want none", res.SlowRanks)
		}
		return
	}
	if len(res.SlowRanks) == 0 || res.SlowRanks[0].Rank != slow {
		t.Errorf("slow ranks %+v, want rank %d first", res.SlowRanks, slow)
	}
}

func TestAnalyzeRecoversTruth(t *testing.T) {
	for _, name := range []string{"default", "balanced-1f1b", "balanced-gpipe", "slow-last-stage", "slow-rank", "clock-skew", "dp-overlap", "dp-exposed", "p2p-nometa", "p2p-nometa+flags"} {
		t.Run(name, func(t *testing.T) {
			scenario, flags := strings.CutSuffix(name, "+flags")
			job := sampletest.Job(t, scenario)
			opts := Options{}
			if flags { // the layout as the user would give it
				opts.Layout = layout.Flags{TP: job.Truth.TP, PP: job.Truth.PP, DP: job.Truth.DP}
			}
			res, err := Analyze(context.Background(), job.Trace, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkTruth(t, res, job.Truth)
		})
	}
}
