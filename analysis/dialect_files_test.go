package analysis_test

import (
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// filesCue is the cue each dialect's phases must come from.
var filesCue = map[string]string{
	samples.DialectTpptrace:   "annotations (forward_step#N)",
	samples.DialectMegatron:   "autograd",
	samples.DialectPipelining: "annotations (Forward i / Backward i)",
	samples.DialectKernelOnly: "pp-p2p",
}

// TestDialectsThroughKinetoFiles: each dialect of the default scenario,
// written as Kineto traces and read back, keeps its cue (thread names,
// evaluate_function ops, PP: ranges) and gives the truth's schedule, m
// and per-stage forward and backward compute.
func TestDialectsThroughKinetoFiles(t *testing.T) {
	for _, d := range samples.Dialects {
		t.Run(samples.DialectName(d), func(t *testing.T) {
			cfg := sampletest.Config(t, "default")
			cfg.Dialect = d
			job := sampletest.Simulate(t, cfg)
			res := analyzeKineto(t, job)
			if !strings.HasPrefix(res.Ranks[0].PhaseSource, filesCue[d]) {
				t.Errorf("phase source %q, want %q", res.Ranks[0].PhaseSource, filesCue[d])
			}
			if res.Schedule != job.Truth.Schedule || res.Microbatches != job.Truth.Microbatches {
				t.Errorf("schedule %s m=%d, want %s m=%d", res.Schedule, res.Microbatches, job.Truth.Schedule, job.Truth.Microbatches)
			}
			if d == samples.DialectKernelOnly {
				return // phases from transfers alone: the forward/backward split is not exact (docs/analysis.md)
			}
			analysis.CheckStagePhases(t, res, job.Truth)
		})
	}
}

// TestRealNsysDialectSchedules: scenarios written as plain nsys records
// them (communicator hashes, NCCL payloads, train_step ranges, no PyTorch
// ranges) give the truth's layout, schedule and m, with phases from the
// PP transfers, and every rank's bubble within 0.01.
func TestRealNsysDialectSchedules(t *testing.T) {
	for _, name := range []string{"default", "balanced-gpipe", "interleaved", "slow-last-stage", "cp2"} {
		t.Run(name, func(t *testing.T) {
			res, tr := nsysRealCase(t, name, nsysw.Options{Dialect: nsysw.DialectReal})
			l := res.Layout
			if l.TP != tr.TP || l.PP != tr.PP || l.DP != tr.DP || max(l.CP, 1) != max(tr.CP, 1) {
				t.Errorf("layout %+v, want TP%d PP%d DP%d CP%d", l, tr.TP, tr.PP, tr.DP, tr.CP)
			}
			if res.Schedule != tr.Schedule || res.Microbatches != tr.Microbatches || tr.VirtualStages > 1 && res.VirtualStages != tr.VirtualStages {
				t.Errorf("schedule %s m=%d v=%d, want %s m=%d v=%d", res.Schedule, res.Microbatches, res.VirtualStages, tr.Schedule, tr.Microbatches, tr.VirtualStages)
			}
			for i, want := range tr.Ranks {
				if d := res.Ranks[i].BubbleFraction - want.BubbleFraction; d > 0.01 || d < -0.01 {
					t.Errorf("rank %d: bubble fraction %.4f, want %.4f", want.Rank, res.Ranks[i].BubbleFraction, want.BubbleFraction)
				}
			}
		})
	}
}
