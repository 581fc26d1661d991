package analysis

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
	"github.com/tpptrace/tpptrace/samples/sampletest"
	"github.com/tpptrace/tpptrace/samples/shared"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// TestTwoRankSetNamesNoSlowRank: the 2-rank HTA set has one peer per rank
// and no collective both ranks were matched in, so neither a slow rank nor
// a pair note may come out of it.
func TestTwoRankSetNamesNoSlowRank(t *testing.T) {
	dir := shared.Dir(t, "traces", "kineto", "hta_trace_filter_2rank")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json.gz"))
	tr, err := kineto.Read(context.Background(), files, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := mustAnalyze(t, tr)
	if len(res.Ranks) != 2 || len(res.SlowRanks) != 0 {
		t.Fatalf("%d ranks, slow ranks %+v; want 2 ranks and none slow", len(res.Ranks), res.SlowRanks)
	}
	// With one peer there is no robust score: at most a low-severity pair
	// note, and only when the collectives' arrival blames one rank.
	for _, f := range res.Findings {
		switch {
		case f.Kind == vocab.KindSlowRank:
			t.Errorf("slow-rank finding %+v from a stage with one peer", f)
		case f.Kind == vocab.KindRankPair && (f.Severity != "low" || res.Clock.Matched == 0):
			t.Errorf("pair note %+v must be low and backed by matched collectives (%d)", f, res.Clock.Matched)
		}
	}
}

func findingOf(res *result.Result, kind string) (result.Finding, bool) {
	for _, f := range res.Findings {
		if f.Kind == kind {
			return f, true
		}
	}
	return result.Finding{}, false
}

func meanOf(res *result.Result, f func(r result.RankStats) int64) int64 {
	var sum int64
	for _, r := range res.Ranks {
		sum += f(r)
	}
	return sum / int64(len(res.Ranks))
}

// TestFindingsShareLostTime: on every scenario the findings' costs add up to
// no more than the step, and the bubble and exposed PP findings split the
// bubble between them instead of both claiming the send/recv wait.
func TestFindingsShareLostTime(t *testing.T) {
	for _, name := range []string{"default", "balanced-1f1b", "balanced-gpipe", "slow-last-stage", "slow-rank", "clock-skew", "dp-overlap", "dp-exposed", "p2p-nometa"} {
		t.Run(name, func(t *testing.T) {
			res := mustAnalyze(t, sampletest.Job(t, name).Trace)
			var total int64
			for _, f := range res.Findings {
				total += f.CostNs
				if f.Kind == vocab.KindLateRank {
					t.Errorf("late rank named where every rank launches on time: %+v", f)
				}
			}
			if total > res.StepNs {
				t.Errorf("findings cost %d ns per step, more than the step %d ns: %+v", total, res.StepNs, res.Findings)
			}
			bubble, _ := findingOf(res, vocab.KindBubble)
			pp, _ := findingOf(res, vocab.KindExposedPP)
			if want := meanOf(res, func(r result.RankStats) int64 { return r.BubbleNs }); res.Layout.PP > 1 && abs(bubble.CostNs+pp.CostNs-want) > 10 {
				t.Errorf("bubble %d + exposed PP %d ns, want the mean bubble %d", bubble.CostNs, pp.CostNs, want)
			}
			wait := meanOf(res, func(r result.RankStats) int64 { return r.ExposedWaitNs["PP"] })
			if exp := meanOf(res, func(r result.RankStats) int64 { return r.ExposedNs["PP"] }); pp.CostNs > exp-wait {
				t.Errorf("exposed PP finding %d ns includes the wait for the neighbour (exposed %d, wait %d)", pp.CostNs, exp, wait)
			}
		})
	}
}

func TestBalancedPipelineBlamesTheBubble(t *testing.T) {
	res := mustAnalyze(t, sampletest.Job(t, "balanced-1f1b").Trace)
	if len(res.Findings) == 0 || res.Findings[0].Kind != vocab.KindBubble {
		t.Fatalf("top finding %+v, want the pipeline bubble", res.Findings)
	}
	pp, ok := findingOf(res, vocab.KindExposedPP)
	if !ok || pp.CostNs <= 0 || pp.CostNs > res.Findings[0].CostNs/4 {
		t.Fatalf("exposed PP finding %+v: want a small transfer cost beside bubble %d", pp, res.Findings[0].CostNs)
	}
	ev := strings.Join(prose.Evidence(res, pp), "; ")
	if !strings.Contains(ev, "waiting for the neighbour (counted in the pipeline bubble)") || !strings.Contains(ev, "transferring") {
		t.Errorf("PP evidence %q does not separate waiting from transferring", ev)
	}
}

func TestSlowRankClaimsTPWait(t *testing.T) {
	res := mustAnalyze(t, sampletest.Job(t, "slow-rank").Trace)
	slow, ok := findingOf(res, vocab.KindSlowRank)
	if !ok || slow.Ranks[0] != 3 {
		t.Fatalf("slow-rank finding %+v, want rank 3", slow)
	}
	ev := strings.Join(prose.Evidence(res, slow), "; ")
	for _, want := range []string{"in TP all_reduce for it", "counted here, not under exposed TP"} {
		if !strings.Contains(ev, want) {
			t.Errorf("slow-rank evidence %q lacks %q", ev, want)
		}
	}
	tp, ok := findingOf(res, vocab.KindExposedTP)
	exposed := meanOf(res, func(r result.RankStats) int64 { return r.ExposedNs["TP"] })
	if !ok || tp.CostNs >= exposed || !strings.Contains(strings.Join(prose.Evidence(res, tp), "; "), "is for slow rank 3, counted under the slow-rank finding") {
		t.Errorf("exposed TP finding %+v still claims the wait for rank 3 (exposed %d)", tp, exposed)
	}
}

func abs(x int64) int64 { return max(x, -x) }
