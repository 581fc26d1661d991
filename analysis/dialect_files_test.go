package analysis_test

import (
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/samples"
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
