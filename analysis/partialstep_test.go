package analysis_test

import (
	"context"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/kinetow"
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
	cfg, err := samples.Lookup("cut-last-step")
	if err != nil {
		t.Fatal(err)
	}
	job, err := samples.Simulate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkCompleteSteps(t, job, analyzeKineto(t, job))
}

// analyzeKineto writes job with the Kineto writer, reads the files back
// with ingest.Load and analyses them.
func analyzeKineto(t *testing.T, job *samples.Job) *result.Result {
	t.Helper()
	dir := t.TempDir()
	if err := kinetow.WriteDir(dir, job); err != nil {
		t.Fatal(err)
	}
	tr, err := ingest.Load(context.Background(), []string{dir}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Analyze(context.Background(), tr, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
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
	if !closeTo(res.StepNs, job.Truth.StepNs) {
		t.Errorf("step %d, want %d", res.StepNs, job.Truth.StepNs)
	}
	for i, want := range job.Truth.Ranks {
		got := res.Ranks[i]
		if !closeTo(got.ComputeNs, want.ComputeNs) || !closeTo(got.IdleNs, want.IdleNs) || got.BubbleFraction-want.BubbleFraction > 0.01 || want.BubbleFraction-got.BubbleFraction > 0.01 {
			t.Errorf("rank %d: compute %d idle %d bubble %.4f, want %d %d %.4f", want.Rank, got.ComputeNs, got.IdleNs, got.BubbleFraction, want.ComputeNs, want.IdleNs, want.BubbleFraction)
		}
	}
}
