package analysis_test

import (
	"math"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestInterleavedRecoversTruth: on the interleaved scenario (TP2 PP4, v=2,
// m=8) the analysis names the schedule, v and m, the ideal bubble
// (p−1)/(v·m+p−1), and every rank's bubble fraction within 0.01 of truth.
func TestInterleavedRecoversTruth(t *testing.T) {
	job, res := analyzeScenario(t, "interleaved")
	checkInterleaved(t, job, res)
}

// TestInterleavedKineto: the same through the Kineto writer and ingest.Load.
func TestInterleavedKineto(t *testing.T) {
	job, _ := analyzeScenario(t, "interleaved")
	checkInterleaved(t, job, analyzeKineto(t, job))
}

func checkInterleaved(t *testing.T, job *samples.Job, res *result.Result) {
	t.Helper()
	tr := job.Truth
	if res.Schedule != samples.ScheduleInterleaved || res.VirtualStages != tr.VirtualStages || res.Microbatches != tr.Microbatches {
		t.Errorf("schedule %q v=%d m=%d, want %q v=%d m=%d", res.Schedule, res.VirtualStages, res.Microbatches, tr.Schedule, tr.VirtualStages, tr.Microbatches)
	}
	if len(res.Stages) == 0 || math.Abs(res.Stages[0].IdealBubbleFraction-tr.IdealBubble) > 1e-9 {
		t.Errorf("ideal bubble %+v, want %g", res.Stages, tr.IdealBubble)
	}
	if len(res.Ranks) != len(tr.Ranks) {
		t.Fatalf("%d ranks, want %d", len(res.Ranks), len(tr.Ranks))
	}
	for i, want := range tr.Ranks {
		got := res.Ranks[i]
		if got.Rank != want.Rank || math.Abs(got.BubbleFraction-want.BubbleFraction) > 0.01 {
			t.Errorf("rank %d: bubble fraction %.4f, want %.4f", want.Rank, got.BubbleFraction, want.BubbleFraction)
		}
		if !sampletest.CloseTo(got.BubbleFillDrainNs, want.FillDrainNs) || !sampletest.CloseTo(got.BubbleSteadyNs, want.SteadyBubbleNs) {
			t.Errorf("rank %d: fill/drain %d steady %d, want %d %d", want.Rank, got.BubbleFillDrainNs, got.BubbleSteadyNs, want.FillDrainNs, want.SteadyBubbleNs)
		}
		if !sampletest.CloseTo(got.ComputeNs, want.ComputeNs) || !sampletest.CloseTo(got.IdleNs, want.IdleNs) || !sampletest.CloseTo(got.ExposedNs["TP"], want.ExposedNs["TP"]) {
			t.Errorf("rank %d: compute %d idle %d exposed TP %d, want %d %d %d", want.Rank, got.ComputeNs, got.IdleNs, got.ExposedNs["TP"], want.ComputeNs, want.IdleNs, want.ExposedNs["TP"])
		}
	}
	if !sampletest.CloseTo(res.StepNs, tr.StepNs) || res.BottleneckStage != tr.BottleneckStage {
		t.Errorf("step %d bottleneck %d, want %d %d", res.StepNs, res.BottleneckStage, tr.StepNs, tr.BottleneckStage)
	}
}

// TestInterleavedFromP2P hides the per-microbatch annotations: the schedule,
// v and m come from the pipeline send/recv directions (stage 0 counts the
// recvs from the last stage as later model chunks).
func TestInterleavedFromP2P(t *testing.T) {
	job := sampletest.Job(t, "interleaved")
	ev := &job.Trace.Events
	for i := range ev.Len() {
		if n := job.Trace.Name(i); ev.Kind[i] == model.KindAnnotation && (strings.HasPrefix(n, "forward_step#") || strings.HasPrefix(n, "backward_step#")) {
			ev.Kind[i] = model.KindCPUOp
		}
	}
	res := analyzeTrace(t, job.Trace)
	tr := job.Truth
	if res.Schedule != samples.ScheduleInterleaved || res.VirtualStages != tr.VirtualStages || res.Microbatches != tr.Microbatches {
		t.Errorf("from p2p: schedule %q v=%d m=%d, want %q v=%d m=%d", res.Schedule, res.VirtualStages, res.Microbatches, tr.Schedule, tr.VirtualStages, tr.Microbatches)
	}
}
