package analysis

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/model"
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

// TestRankKernelsIsMapSum: rankKernels (a table by name id, the window of
// the last kernel tried first) sums, per name, what one map update per
// kernel in a step (stepOf) sums, on ranks used twice in a row (the
// scratch table is left clean).
func TestRankKernelsIsMapSum(t *testing.T) {
	for _, sc := range []string{"default", "cut-last-step", "interleaved"} {
		tr := sampletest.Job(t, sc).Trace
		r, err := analyze(context.Background(), tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, rk := range tr.Ranks {
			v := tr.RankView(rk.Rank)
			want := map[int32]kernelSum{}
			for i := range v.Events.Len() {
				k := v.Events.Kind[i]
				if k.OnGPU() && k != model.KindGPUAnnotation && r.stepOf(rk.Rank, v.Events.Start[i]) >= 0 {
					s := want[v.Events.Name[i]]
					want[v.Events.Name[i]] = kernelSum{id: v.Events.Name[i], n: s.n + 1, dur: s.dur + v.Events.Dur[i]}
				}
			}
			for range 2 {
				got := r.rankKernels(v, rk.Rank)
				if len(got) != len(want) || len(want) == 0 {
					t.Fatalf("%s rank %d: %d names, want %d", sc, rk.Rank, len(got), len(want))
				}
				for _, s := range got {
					if want[s.id] != s {
						t.Fatalf("%s rank %d name %d: %+v, want %+v", sc, rk.Rank, s.id, s, want[s.id])
					}
				}
			}
		}
	}
}
