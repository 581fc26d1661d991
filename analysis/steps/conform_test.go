package steps_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/samples/sampletest"
	"github.com/tpptrace/tpptrace/samples/shared"

	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/analysis/steps"
	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// TestFindOnGeneratedJobs: the analysed steps are the truth's complete
// steps, and every GPU event of a step window carries its iteration.
func TestFindOnGeneratedJobs(t *testing.T) {
	for _, name := range []string{"balanced-1f1b", "clock-skew", "p2p-nometa", "dp-overlap"} {
		t.Run(name, func(t *testing.T) {
			j := sampletest.Job(t, name)
			s, err := steps.Find(j.Trace, nil)
			if err != nil || s.Method != "profiler-step" {
				t.Fatalf("Find: %v, method %q", err, s.Method)
			}
			if got := toInts(s.Iters); !slices.Equal(got, j.Truth.Steps) {
				t.Fatalf("iters %v, truth %v (dropped %v)", got, j.Truth.Steps, s.Dropped)
			}
			checkGPUIters(t, j.Trace, s)
		})
	}
}

// TestFindPeriodOnGeneratedJob hides the ProfilerStep annotations: the DP
// sync period must give as many steps as the truth, minus the incomplete
// first window.
func TestFindPeriodOnGeneratedJob(t *testing.T) {
	j := sampletest.Job(t, "balanced-1f1b")
	if _, err := layout.Infer(j.Trace, layout.Flags{}); err != nil {
		t.Fatal(err)
	}
	for i, k := range j.Trace.Events.Kind {
		if k == model.KindAnnotation {
			j.Trace.Events.Kind[i] = model.KindCPUOp
		}
	}
	s, _ := steps.Find(j.Trace, nil)
	if s.Method != "period" || len(s.Iters) != len(j.Truth.Steps)-1 {
		t.Fatalf("method %q iters %v, want period with %d steps", s.Method, s.Iters, len(j.Truth.Steps)-1)
	}
}

func checkGPUIters(t *testing.T, tr *model.Trace, s steps.Steps) {
	t.Helper()
	ev := &tr.Events
	for i := 0; i < ev.Len(); i++ {
		if !ev.Kind[i].OnGPU() || ev.Kind[i] == model.KindGPUAnnotation {
			continue
		}
		for _, w := range s.ByRank[ev.Rank[i]] {
			if ev.Start[i] >= w.Start && ev.Start[i]+ev.Dur[i] <= w.End && ev.Iter[i] != w.Iter {
				t.Fatalf("rank %d GPU event at %d inside step %d labelled %d", ev.Rank[i], ev.Start[i], w.Iter, ev.Iter[i])
			}
		}
	}
}

func toInts(v []int32) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

// TestFindOnRealDLRM: one ProfilerStep (#10) per rank, its GPU work inside.
func TestFindOnRealDLRM(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(shared.Dir(t, "traces", "kineto", "param_dlrm_8rank"), "*.json"))
	tr, err := kineto.Read(context.Background(), files, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := steps.Find(tr, nil)
	if err != nil || s.Method != "profiler-step" || !slices.Equal(s.Iters, []int32{10}) || len(s.ByRank) != 8 {
		t.Fatalf("Find = %+v, %v; want step 10 on 8 ranks", s, err)
	}
	checkGPUIters(t, tr, s)
}

func BenchmarkFindBig64(b *testing.B) {
	j := sampletest.Job(b, "big-64")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := steps.Find(j.Trace, nil); err != nil {
			b.Fatal(err)
		}
	}
}
