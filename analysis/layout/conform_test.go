package layout_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/sampletest"
	"github.com/tpptrace/tpptrace/samples/shared"

	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples"
)

// TestInferOnGeneratedJobs checks every generator scenario against its
// truth: sizes and every rank's (tp, pp, dp), with no problem reported.
func TestInferOnGeneratedJobs(t *testing.T) {
	for _, s := range samples.Scenarios {
		t.Run(s.Name, func(t *testing.T) {
			j := sampletest.Job(t, s.Name)
			l, err := layout.Infer(j.Trace, layout.Flags{})
			if err != nil || l.TP != j.Truth.TP || l.PP != j.Truth.PP || l.DP != j.Truth.DP || len(l.Problems) > 0 {
				t.Fatalf("Infer = %+v, %v; truth TP%d PP%d DP%d", l, err, j.Truth.TP, j.Truth.PP, j.Truth.DP)
			}
			for i, r := range j.Truth.Ranks {
				c := j.Trace.Ranks[i].Coord
				if int(c.TP) != r.TP || int(c.PP) != r.PP || int(c.DP) != r.DP {
					t.Errorf("rank %d coord %+v, truth tp%d pp%d dp%d", r.Rank, c, r.TP, r.PP, r.DP)
				}
			}
		})
	}
}

// TestInferOnRealDLRM: 8 DLRM ranks whose process groups carry no
// description and whose kernels carry no collective metadata.
func TestInferOnRealDLRM(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(shared.Dir(t, "traces", "kineto", "param_dlrm_8rank"), "*.json"))
	tr, err := kineto.Read(context.Background(), files, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := layout.Infer(tr, layout.Flags{})
	if err != nil || l.TP != 1 || l.PP != 1 || l.DP != 8 || len(l.Problems) > 0 {
		t.Fatalf("Infer = %+v, %v; want TP1 PP1 DP8", l, err)
	}
	for _, r := range tr.Ranks {
		if r.Coord.DP != r.Rank || r.Coord.TP != 0 || r.Coord.PP != 0 {
			t.Errorf("rank %d coord %+v", r.Rank, r.Coord)
		}
	}
}

// TestInferOnSampledHTA: HTA's trace_filter set keeps a sample of each
// rank's kernels and names no process group. Both ranks go to the
// inferred DP world; rank 1's sequence differs, which a warning says.
func TestInferOnSampledHTA(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(shared.Dir(t, "traces", "kineto", "hta_trace_filter_2rank"), "*.json.gz"))
	tr, err := kineto.Read(context.Background(), files, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := layout.Infer(tr, layout.Flags{})
	if err != nil || l.DP != 2 || len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "rank 1's sequence differs from rank 0's") {
		t.Fatalf("Infer = %+v, %v; want DP2 and a warning about rank 1", l, err)
	}
	if len(tr.Comms) != 1 || tr.Comms[0].ID != layout.WorldID || tr.Comms[0].Axis != model.AxisDP || len(tr.Comms[0].Members) != 2 {
		t.Errorf("comms %+v; want the inferred DP world of 2", tr.Comms)
	}
}

func BenchmarkInferBig64(b *testing.B) {
	j := sampletest.Job(b, "big-64")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := layout.Infer(j.Trace, layout.Flags{}); err != nil {
			b.Fatal(err)
		}
	}
}
