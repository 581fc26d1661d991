package analysis_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
)

// analyzeShared reads a Kineto set from ../shared/traces/kineto beside the
// repository root (skipping when it is absent) and analyses it.
func analyzeShared(t *testing.T, set string) *result.Result {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			t.Skip("repository root not found")
		}
		dir = filepath.Dir(dir)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "..", "shared", "traces", "kineto", set, "*.json*"))
	if len(files) == 0 {
		t.Skipf("../shared/traces/kineto/%s absent", set)
	}
	tr, err := kineto.Read(context.Background(), files, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := analyzeTrace(t, tr)
	return res
}

// TestDLRMWithoutProcessGroupsIsAligned: the 2023 DLRM traces carry no
// process group; the inferred world group matches all 8 collectives of the
// step on all 8 ranks, the ranks (one host) align within a few µs, and
// every rank's communication splits into waiting and transfer: the dense
// all-reduces as DP, the embedding all-to-alls as A2A.
func TestDLRMWithoutProcessGroupsIsAligned(t *testing.T) {
	res := analyzeShared(t, "param_dlrm_8rank")
	if res.Clock.Method != "collective-end" || res.Clock.Matched != 8 || res.Clock.ResidualNs > 5_000 {
		t.Fatalf("clock %+v; want collective-end, 8 instances, residual ≤ 5 µs", res.Clock)
	}
	var waiting int
	for _, r := range res.Ranks {
		if r.ClockOffsetNs < -20_000 || r.ClockOffsetNs > 20_000 {
			t.Errorf("rank %d offset %d ns; the 8 ranks share one host clock", r.Rank, r.ClockOffsetNs)
		}
		if r.TransferNs["DP"] <= 0 || r.TransferNs["A2A"] <= 0 {
			t.Errorf("rank %d: DP transfer %d ns, A2A %d, want both > 0", r.Rank, r.TransferNs["DP"], r.TransferNs["A2A"])
		}
		if r.WaitNs["A2A"] > 0 {
			waiting++
		}
	}
	if waiting < 4 {
		t.Errorf("%d ranks wait for the last member; DLRM's embedding all-to-all makes most wait", waiting)
	}
	// Rank 7's kernels are the shortest in the trace (it arrives last at
	// every collective), so it waits least.
	wait := func(r result.RankStats) int64 { return r.WaitNs["DP"] + r.WaitNs["A2A"] }
	for _, r := range res.Ranks[:7] {
		if wait(r) <= wait(res.Ranks[7]) {
			t.Errorf("rank %d waits %d ns, rank 7 (last to arrive) %d ns", r.Rank, wait(r), wait(res.Ranks[7]))
		}
	}
}

// TestSampledTwoRankSetIsAligned: HTA's trace_filter set keeps a sample
// of each rank's kernels, so the sequences differ; the kernels that pair
// by op, size and end still align the two ranks.
func TestSampledTwoRankSetIsAligned(t *testing.T) {
	res := analyzeShared(t, "hta_trace_filter_2rank")
	if res.Clock.Method != "collective-end" || res.Clock.Matched < 3 || res.Clock.ResidualNs > 100_000 {
		t.Fatalf("clock %+v; want collective-end, ≥ 3 instances, residual ≤ 100 µs", res.Clock)
	}
}

// TestDLRMNamesLateRank: rank 7 arrives last at 4 of the 5 embedding
// all-to-alls of the step, its compute no slower than its peers': a late
// rank. The wait it causes moves from the exposed all-to-all (A2A)
// finding to the late-rank finding, and the two add up to the exposed
// A2A time; the all-to-alls are not called DP.
func TestDLRMNamesLateRank(t *testing.T) {
	res := analyzeShared(t, "param_dlrm_8rank")
	var late, a2a result.Finding
	for _, f := range res.Findings {
		switch f.Kind {
		case vocab.KindLateRank:
			if late.Kind != "" {
				t.Errorf("second late rank %+v", f)
			}
			late = f
		case vocab.KindExposedA2A:
			a2a = f
		}
	}
	if len(late.Ranks) != 1 || late.Ranks[0] != 7 {
		t.Fatalf("late-rank finding %+v, want rank 7", late)
	}
	var exposed int64
	for _, r := range res.Ranks {
		exposed += r.ExposedNs["A2A"]
	}
	exposed /= int64(len(res.Ranks))
	if d := late.CostNs + a2a.CostNs - exposed; d < -10 || d > 10 || late.CostNs < exposed/10 {
		t.Errorf("late %d + exposed A2A %d ns, want the exposed A2A %d with a real share for the late rank", late.CostNs, a2a.CostNs, exposed)
	}
	ev := strings.Join(prose.Evidence(res, late), "; ")
	for _, want := range []string{"arrives last at 4 of the 5 A2A collectives", "right before those kernels start", "does not explain the lateness"} {
		if !strings.Contains(ev, want) {
			t.Errorf("evidence %q lacks %q", ev, want)
		}
	}
	if strings.Contains(ev, "DP all_to_all") {
		t.Errorf("evidence %q calls the embedding all-to-all DP", ev)
	}
}
