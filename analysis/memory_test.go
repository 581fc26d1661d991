package analysis_test

import (
	"math"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
	"github.com/tpptrace/tpptrace/samples"
)

// memJob simulates a scenario with memory events on.
func memJob(t *testing.T, name string) *samples.Job {
	t.Helper()
	c, err := samples.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	c.MemoryEvents = true
	job, err := samples.Simulate(c)
	if err != nil {
		t.Fatal(err)
	}
	return job
}

// TestPeakMemoryMatchesTruth writes Kineto traces with [memory] events,
// ingests and analyses them, and expects each rank's and stage's peak
// within 1 % of the truth; GPipe (m = 8 > p = 4) gets a memory_peak
// finding naming stage 0.
func TestPeakMemoryMatchesTruth(t *testing.T) {
	for _, name := range []string{"balanced-gpipe", "balanced-1f1b"} {
		t.Run(name, func(t *testing.T) {
			job := memJob(t, name)
			res := analyzeKineto(t, job)
			worst := 0.0
			for i, want := range job.Truth.Ranks {
				got := res.Ranks[i].PeakMemBytes
				worst = max(worst, math.Abs(float64(got-want.PeakMemBytes))/float64(want.PeakMemBytes))
			}
			if worst > 0.01 {
				t.Errorf("worst rank peak error %.4f %%", 100*worst)
			}
			for s, st := range job.Truth.Stages {
				if got := res.Stages[s].PeakMemBytes; math.Abs(float64(got-st.PeakMemBytes)) > 0.01*float64(st.PeakMemBytes) {
					t.Errorf("stage %d peak %d, truth %d", s, got, st.PeakMemBytes)
				}
			}
			f := findKind(res, vocab.KindMemoryPeak)
			if name == "balanced-gpipe" {
				if f == nil || len(f.Stages) != 1 || f.Stages[0] != 0 || !strings.Contains(prose.Headline(res, *f), "stage 0 holds 8 microbatches") {
					t.Fatalf("gpipe: memory finding %+v, want stage 0 holding 8 microbatches", f)
				}
				if !strings.Contains(f.Remedy, "1F1B") {
					t.Errorf("gpipe remedy %q does not suggest 1F1B", f.Remedy)
				}
			}
		})
	}
}

func findKind(res *result.Result, kind string) *result.Finding {
	for i := range res.Findings {
		if res.Findings[i].Kind == kind {
			return &res.Findings[i]
		}
	}
	return nil
}
