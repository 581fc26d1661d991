package nsysw_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// analyzeDir loads a directory as `tpptrace analyze <dir>` does and analyses it.
func analyzeDir(t *testing.T, dir string) *result.Result {
	t.Helper()
	tr := sampletest.Load(t, source.Options{Workers: 2}, dir)
	res, err := analysis.Analyze(context.Background(), tr, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func checkTruth(t *testing.T, form string, res *result.Result, tr samples.Truth) {
	t.Helper()
	if res.Schedule != tr.Schedule || res.Microbatches != tr.Microbatches || res.BottleneckStage != tr.BottleneckStage {
		t.Errorf("%s: schedule %s m=%d bottleneck %d, want %s m=%d %d", form, res.Schedule, res.Microbatches, res.BottleneckStage, tr.Schedule, tr.Microbatches, tr.BottleneckStage)
	}
	if !sampletest.CloseTo(res.StepNs, tr.StepNs) || len(res.Ranks) != len(tr.Ranks) {
		t.Fatalf("%s: step %d over %d ranks, want %d over %d", form, res.StepNs, len(res.Ranks), tr.StepNs, len(tr.Ranks))
	}
	for i, w := range tr.Ranks {
		g := res.Ranks[i]
		if math.Abs(g.BubbleFraction-w.BubbleFraction) > 0.01 || !sampletest.CloseTo(g.ComputeNs, w.ComputeNs) || !sampletest.CloseTo(g.IdleNs, w.IdleNs) {
			t.Errorf("%s rank %d: bubble %.4f compute %d idle %d, want %.4f %d %d", form, w.Rank, g.BubbleFraction, g.ComputeNs, g.IdleNs, w.BubbleFraction, w.ComputeNs, w.IdleNs)
		}
		if d := g.ClockOffsetNs - w.ClockOffsetNs; d > 20e3 || d < -20e3 {
			t.Errorf("%s rank %d: clock offset %d, want %d", form, w.Rank, g.ClockOffsetNs, w.ClockOffsetNs)
		}
		for ax, e := range w.ExposedNs {
			if !sampletest.CloseTo(g.ExposedNs[ax], e) || !sampletest.CloseTo(g.CommNs[ax], w.CommNs[ax]) {
				t.Errorf("%s rank %d %s: comm %d exposed %d, want %d %d", form, w.Rank, ax, g.CommNs[ax], g.ExposedNs[ax], w.CommNs[ax], e)
			}
		}
	}
	if (tr.SlowRank < 0) != (len(res.SlowRanks) == 0) || tr.SlowRank >= 0 && res.SlowRanks[0].Rank != tr.SlowRank {
		t.Errorf("%s: slow ranks %+v, want %d", form, res.SlowRanks, tr.SlowRank)
	}
}

// sameFindings: the nsys and Kineto forms diagnose the same things.
func sameFindings(t *testing.T, nsys, kin *result.Result) {
	t.Helper()
	codes := func(r *result.Result) map[string]bool {
		m := map[string]bool{}
		for _, f := range r.Findings {
			m[fmt.Sprintf("%s ranks %v stages %v", f.Kind, f.Ranks, f.Stages)] = true
		}
		return m
	}
	n, k := codes(nsys), codes(kin)
	if len(k) == 0 {
		t.Fatal("the Kineto form has no findings: nothing to compare")
	}
	t.Logf("%d findings in both forms", len(k))
	for c := range k {
		if !n[c] {
			t.Errorf("finding %q from the Kineto form is missing from the nsys form", c)
		}
	}
	for c := range n {
		if !k[c] {
			t.Errorf("finding %q from the nsys form is not in the Kineto form", c)
		}
	}
}

func TestNsysAndKinetoFormsAgree(t *testing.T) {
	for _, name := range []string{"default", "clock-skew", "dp-exposed"} {
		for _, perNode := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "/per-rank", true: "/per-node"}[perNode], func(t *testing.T) {
				job := sampletest.Job(t, name)
				nd, kd := t.TempDir(), sampletest.KinetoDir(t, job)
				if _, err := nsysw.WriteDir(nd, job, nsysw.Options{PerNode: perNode}); err != nil {
					t.Fatal(err)
				}
				nres, kres := analyzeDir(t, nd), analyzeDir(t, kd)
				checkTruth(t, "nsys", nres, job.Truth)
				checkTruth(t, "kineto", kres, job.Truth)
				sameFindings(t, nres, kres)
			})
		}
	}
}
