package analysis

import (
	"math"
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
