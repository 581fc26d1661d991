package analysis

import (
	"context"
	"math"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// dialectScenarios are the scenarios every dialect is checked on.
var dialectScenarios = []string{"default", "balanced-1f1b", "balanced-gpipe", "slow-last-stage", "slow-rank", "clock-skew",
	"dp-overlap", "dp-exposed", "p2p-nometa", "interleaved", "cut-last-step", "late-rank", "cp2", "moe-ep4"}

// TestDialectsRecoverTruth: every scenario written in every dialect of
// ../shared/reference/dialects.md (tpptrace's annotations, Megatron-LM's
// autograd thread with batched p2p, torch.distributed.pipelining's PP:
// and Forward i ranges, kernel-only) gives the truth's layout, schedule,
// m, bubble, exposed communication, clock offsets, slow rank and
// bottleneck stage, and names the cue its phases came from.
func TestDialectsRecoverTruth(t *testing.T) {
	for _, d := range samples.Dialects {
		for _, name := range dialectScenarios {
			t.Run(samples.DialectName(d)+"/"+name, func(t *testing.T) {
				cfg := sampletest.Config(t, name)
				cfg.Dialect = d
				if d == samples.DialectKernelOnly {
					cfg.TruthFrom = 1 // no step ranges: the DP-sync period cannot see where the first step starts
				}
				job := sampletest.Simulate(t, cfg)
				res, err := Analyze(context.Background(), job.Trace, Options{})
				if err != nil {
					t.Fatal(err)
				}
				checkDialectLayout(t, res, job.Truth)
				checkPhaseSource(t, res, d)
				if d == samples.DialectKernelOnly {
					checkKernelOnly(t, res, job.Truth)
					return
				}
				checkTruth(t, res, job.Truth)
				checkStagePhases(t, res, job.Truth)
			})
		}
	}
}

func checkDialectLayout(t *testing.T, res *result.Result, tr samples.Truth) {
	t.Helper()
	l := res.Layout
	if l.TP != tr.TP || l.PP != tr.PP || l.DP != tr.DP || max(l.CP, 1) != max(tr.CP, 1) || max(l.EP, 1) != max(tr.EP, 1) {
		t.Errorf("layout %+v, want TP%d PP%d DP%d CP%d EP%d", l, tr.TP, tr.PP, tr.DP, tr.CP, tr.EP)
	}
	if tr.VirtualStages > 1 && res.VirtualStages != tr.VirtualStages {
		t.Errorf("virtual stages %d, want %d", res.VirtualStages, tr.VirtualStages)
	}
}

// wantCue is the cue each dialect's phases must come from.
var wantCue = map[string]string{
	samples.DialectTpptrace:   "annotations (forward_step#N)",
	samples.DialectMegatron:   "autograd",
	samples.DialectPipelining: "annotations",
	samples.DialectKernelOnly: "pp-p2p",
}

func checkPhaseSource(t *testing.T, res *result.Result, d string) {
	t.Helper()
	if res.Layout.PP <= 1 {
		return
	}
	for _, r := range res.Ranks {
		if len(r.PhaseSource) < len(wantCue[d]) || r.PhaseSource[:len(wantCue[d])] != wantCue[d] {
			t.Errorf("rank %d: phase source %q, want %q", r.Rank, r.PhaseSource, wantCue[d])
			return
		}
	}
}

// checkStagePhases holds each stage's forward and backward compute to the
// truth's.
func checkStagePhases(t *testing.T, res *result.Result, tr samples.Truth) {
	t.Helper()
	for i, st := range res.Stages {
		want := tr.Stages[i]
		if !sampletest.CloseTo(st.ForwardNs, want.ForwardNs) || !sampletest.CloseTo(st.BackwardNs, want.BackwardNs) {
			t.Errorf("stage %d: forward %d backward %d, want %d %d", i, st.ForwardNs, st.BackwardNs, want.ForwardNs, want.BackwardNs)
		}
	}
}

// checkKernelOnly holds a capture without a CPU side to what issue 10 asks
// of every dialect: schedule and m, the bottleneck stage, step time, every
// rank's bubble fraction (±0.01), compute, exposed communication per axis
// (5 % or 0.5 ms) and clock offset (20 µs), and the slow rank. The split of
// the bubble into fill/drain and steady state, and the forward/backward
// compute, rest on passes cut from transfers alone and are not held to
// the truth here (docs/analysis.md).
func checkKernelOnly(t *testing.T, res *result.Result, tr samples.Truth) {
	t.Helper()
	if res.Schedule != tr.Schedule || res.Microbatches != tr.Microbatches && tr.Schedule != "none" {
		t.Errorf("schedule %s m=%d, want %s m=%d", res.Schedule, res.Microbatches, tr.Schedule, tr.Microbatches)
	}
	if res.BottleneckStage != tr.BottleneckStage || !sampletest.CloseTo(res.StepNs, tr.StepNs) {
		t.Errorf("bottleneck stage %d step %d, want %d %d", res.BottleneckStage, res.StepNs, tr.BottleneckStage, tr.StepNs)
	}
	if len(res.Ranks) != len(tr.Ranks) {
		t.Fatalf("%d ranks, want %d", len(res.Ranks), len(tr.Ranks))
	}
	for i, want := range tr.Ranks {
		got := res.Ranks[i]
		if math.Abs(got.BubbleFraction-want.BubbleFraction) > 0.01 || !sampletest.CloseTo(got.ComputeNs, want.ComputeNs) {
			t.Errorf("rank %d: bubble fraction %.4f compute %d, want %.4f %d", want.Rank, got.BubbleFraction, got.ComputeNs, want.BubbleFraction, want.ComputeNs)
		}
		if d := got.ClockOffsetNs - want.ClockOffsetNs; d > 20e3 || d < -20e3 {
			t.Errorf("rank %d: clock offset %d, want %d", want.Rank, got.ClockOffsetNs, want.ClockOffsetNs)
		}
		for ax, w := range want.ExposedNs {
			if !sampletest.CloseTo(got.ExposedNs[ax], w) {
				t.Errorf("rank %d %s: exposed %d, want %d", want.Rank, ax, got.ExposedNs[ax], w)
			}
		}
	}
	checkSlow(t, res, tr.SlowRank)
}
