package layout_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/sampletest"
	"github.com/tpptrace/tpptrace/samples/shared"

	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

// TestInferOnGeneratedJobs checks every generator scenario against its
// truth: sizes and every rank's (tp, pp, dp, cp, ep), with no problem
// reported.
func TestInferOnGeneratedJobs(t *testing.T) {
	for _, s := range samples.Scenarios {
		t.Run(s.Name, func(t *testing.T) {
			j := sampletest.Job(t, s.Name)
			l, err := layout.Infer(j.Trace, layout.Flags{})
			w := j.Truth
			if err != nil || l.TP != w.TP || l.PP != w.PP || l.DP != w.DP || l.CP != max(w.CP, 1) || l.EP != max(w.EP, 1) || len(l.Problems) > 0 {
				t.Fatalf("Infer = %+v, %v; truth TP%d PP%d DP%d CP%d EP%d", l, err, w.TP, w.PP, w.DP, w.CP, w.EP)
			}
			for i, r := range w.Ranks {
				c := j.Trace.Ranks[i].Coord
				if int(c.TP) != r.TP || int(c.PP) != r.PP || int(c.DP) != r.DP || int(c.CP) != r.CP || int(c.EP) != r.EP {
					t.Errorf("rank %d coord %+v, truth tp%d pp%d dp%d cp%d ep%d", r.Rank, c, r.TP, r.PP, r.DP, r.CP, r.EP)
				}
			}
		})
	}
}

// TestWorldSizeCountsContextAndExpert: the world-size check multiplies
// CP and EP in: flags giving moe-ep4's own sizes (TP2 PP2 DP1 EP4, 16
// ranks) raise no problem, with EP2 (or cp2 with CP1) they do.
func TestWorldSizeCountsContextAndExpert(t *testing.T) {
	for _, c := range []struct {
		name  string
		flags layout.Flags
		want  bool // a world_size_mismatch expected
	}{
		{"moe-ep4", layout.Flags{TP: 2, PP: 2, DP: 1, EP: 4}, false},
		{"moe-ep4", layout.Flags{TP: 2, PP: 2, DP: 1, EP: 2}, true},
		{"cp2", layout.Flags{TP: 2, PP: 2, DP: 1, CP: 2}, false},
		{"cp2", layout.Flags{TP: 2, PP: 2, DP: 1, CP: 1}, true},
	} {
		l, err := layout.Infer(sampletest.Job(t, c.name).Trace, c.flags)
		if err != nil {
			t.Fatal(err)
		}
		got := slices.ContainsFunc(l.Problems, func(p layout.Problem) bool { return p.Kind == "world_size_mismatch" })
		if got != c.want {
			t.Errorf("%s %+v: world_size_mismatch %v, want %v (problems %+v)", c.name, c.flags, got, c.want, l.Problems)
		}
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
// inferred DP world, their all-to-alls to its A2A part; rank 1's sequence
// differs, which a warning says.
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
	if len(tr.Comms) != 2 || tr.Comms[0].ID != layout.WorldID || tr.Comms[0].Axis != model.AxisDP || len(tr.Comms[0].Members) != 2 ||
		tr.Comms[1].Axis != model.AxisA2A || len(tr.Comms[1].Members) != 2 {
		t.Errorf("comms %+v; want the inferred DP world of 2 and its all-to-all part (A2A)", tr.Comms)
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
