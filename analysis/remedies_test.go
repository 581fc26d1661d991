package analysis_test

import (
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
)

// findingOf is the first finding of kind, or fails.
func findingOf(t *testing.T, res *result.Result, kind string) result.Finding {
	t.Helper()
	for _, f := range res.Findings {
		if f.Kind == kind {
			return f
		}
	}
	t.Fatalf("no %s finding among %+v", kind, res.Findings)
	return result.Finding{}
}

// TestInterleavedIsNotToldToInterleave: the interleaved scenario (truth:
// v = 2 chunks per stage) already runs an interleaved schedule, so its
// bubble remedy raises m or v and never says "use an interleaved schedule";
// a 1F1B job (default) still gets that advice.
func TestInterleavedIsNotToldToInterleave(t *testing.T) {
	job, res := analyzeScenario(t, "interleaved")
	if job.Truth.VirtualStages < 2 {
		t.Fatalf("truth v = %d; the scenario should interleave", job.Truth.VirtualStages)
	}
	for _, f := range res.Findings {
		if strings.Contains(f.Remedy, "use an interleaved schedule") {
			t.Errorf("interleaved job told %q (%s)", f.Remedy, f.Kind)
		}
	}
	if r := findingOf(t, res, vocab.KindBubble).Remedy; !strings.Contains(r, "microbatches") || !strings.Contains(r, "chunks per stage") {
		t.Errorf("bubble remedy %q; want m and more chunks per stage", r)
	}
	_, base := analyzeScenario(t, "default")
	if r := findingOf(t, base, vocab.KindBubble).Remedy; !strings.Contains(r, "use an interleaved schedule") {
		t.Errorf("1F1B job's bubble remedy %q lost the interleaved schedule", r)
	}
}

// TestOverlappedDPIsNotToldToOverlap: dp-overlap's gradient all-reduce
// already runs under the last backward (truth: it exposes less DP time
// than its comm time), so its remedy is bucket size and network, never
// "overlap the DP gradient sync"; dp-exposed (no overlap) still gets it.
func TestOverlappedDPIsNotToldToOverlap(t *testing.T) {
	job, res := analyzeScenario(t, "dp-overlap")
	w := job.Truth.Ranks[0]
	if w.ExposedNs["DP"]*2 > w.CommNs["DP"] {
		t.Fatalf("truth: DP exposed %d of %d ns; the scenario should overlap most of it", w.ExposedNs["DP"], w.CommNs["DP"])
	}
	r := findingOf(t, res, vocab.KindExposedDP).Remedy
	if strings.Contains(r, "overlap the DP gradient sync") || !strings.Contains(r, "already overlaps") || !strings.Contains(r, "bucket") {
		t.Errorf("overlapped DP remedy %q; want bucket size and network, no overlap advice", r)
	}
	_, exposed := analyzeScenario(t, "dp-exposed")
	if r := findingOf(t, exposed, vocab.KindExposedDP).Remedy; !strings.Contains(r, "overlap the DP gradient sync") {
		t.Errorf("non-overlapped DP remedy %q; want the overlap advice", r)
	}
}

// TestLateRankScenarioHasNoPipelineFindings: the late-rank job (PP = 1)
// gets no pipeline finding; its DP remedy names no single framework's flag
// alone (DDP bucketing / overlap_grad_reduce).
func TestLateRankScenarioHasNoPipelineFindings(t *testing.T) {
	_, res := analyzeScenario(t, "late-rank")
	for _, f := range res.Findings {
		switch f.Kind {
		case vocab.KindBubble, vocab.KindImbalance, vocab.KindExposedPP, vocab.KindMemoryPeak:
			t.Errorf("pipeline finding %s in a PP = 1 job: %s", f.Kind, prose.Headline(res, f))
		}
	}
	if r := findingOf(t, res, vocab.KindExposedDP).Remedy; !strings.Contains(r, "DDP bucketing") || strings.Contains(r, "pipeline") {
		t.Errorf("PP = 1 DP remedy %q", r)
	}
}
