package analysis

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestResultKernelsMatchTruth: the Result's kernels, by short name per
// step summed over ranks, hold the generator's compute per step (every
// kernel not NCCL's is compute in the simulated job), largest first.
func TestResultKernelsMatchTruth(t *testing.T) {
	job := sampletest.Job(t, "default")
	res := mustAnalyze(t, job.Trace)
	var compute, want float64
	for i, k := range res.Kernels {
		if strings.ContainsAny(k.Name, "(<") || i > 0 && k.TimeNs > res.Kernels[i-1].TimeNs {
			t.Errorf("kernel %d %+v: not a short name, or out of order", i, k)
		}
		if !strings.HasPrefix(k.Name, "nccl") {
			compute += float64(k.TimeNs)
		}
	}
	for _, r := range job.Truth.Ranks {
		want += float64(r.ComputeNs)
	}
	if len(res.Kernels) == 0 || math.Abs(compute-want) > 0.01*want {
		t.Errorf("compute kernels %.0f ns per step, truth %.0f (%d kernels)", compute, want, len(res.Kernels))
	}
}

// TestPeriodIsTheMedianRankStep: period_ns is the truth's median rank
// step; step_ns stays the span, longer by the skew.
func TestPeriodIsTheMedianRankStep(t *testing.T) {
	job := sampletest.Job(t, "default")
	res := mustAnalyze(t, job.Trace)
	var steps []int64
	for _, r := range job.Truth.Ranks {
		steps = append(steps, r.StepNs)
	}
	slices.Sort(steps)
	if want := steps[len(steps)/2]; math.Abs(float64(res.PeriodNs-want)) > 0.005*float64(want) || res.PeriodNs > res.StepNs {
		t.Errorf("period %d ns, truth's median rank step %d, span %d", res.PeriodNs, want, res.StepNs)
	}
}
