package analysis_test

import (
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestCutLastStepDropsIt: the capture of the cut-last-step scenario ends
// half-way through the last step on half of the ranks; the analysed
// iterations are exactly the truth's complete steps, and the figures
// averaged over them match the truth.
func TestCutLastStepDropsIt(t *testing.T) {
	job, res := analyzeScenario(t, "cut-last-step")
	checkCompleteSteps(t, job, res)
}

// TestCutLastStepKineto: the same through the Kineto writer and ingest.Load
// (clipped ProfilerStep range, launches without kernels, kernels past the
// window).
func TestCutLastStepKineto(t *testing.T) {
	job := sampletest.Job(t, "cut-last-step")
	checkCompleteSteps(t, job, analyzeKineto(t, job))
}

func checkCompleteSteps(t *testing.T, job *samples.Job, res *result.Result) {
	t.Helper()
	var got []int
	for _, it := range res.Iterations {
		got = append(got, it.Index)
	}
	if !slices.Equal(got, job.Truth.Steps) {
		t.Fatalf("analysed steps %v, want the complete ones %v", got, job.Truth.Steps)
	}
	if !sampletest.CloseTo(res.StepNs, job.Truth.StepNs) {
		t.Errorf("step %d, want %d", res.StepNs, job.Truth.StepNs)
	}
	for i, want := range job.Truth.Ranks {
		got := res.Ranks[i]
		if !sampletest.CloseTo(got.ComputeNs, want.ComputeNs) || !sampletest.CloseTo(got.IdleNs, want.IdleNs) || got.BubbleFraction-want.BubbleFraction > 0.01 || want.BubbleFraction-got.BubbleFraction > 0.01 {
			t.Errorf("rank %d: compute %d idle %d bubble %.4f, want %d %d %.4f", want.Rank, got.ComputeNs, got.IdleNs, got.BubbleFraction, want.ComputeNs, want.IdleNs, want.BubbleFraction)
		}
	}
}
