package diagnose

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
)

// fourByTwo is a 2-stage, 4-ranks-per-stage result with the given compute
// per rank (ms).
func fourByTwo(computeMs []int64) *result.Result {
	res := &result.Result{StepNs: 100e6, Layout: result.Layout{TP: 2, PP: 2, DP: 2}, Schedule: "1f1b", Microbatches: 8}
	for r, c := range computeMs {
		res.Ranks = append(res.Ranks, result.RankStats{Rank: r, TP: r % 2, DP: r / 2 % 2, PP: r / 4, Host: "node000", LocalGPU: r,
			ComputeNs: c * 1e6, BubbleNs: 20e6, ExposedNs: map[string]int64{"TP": 5e6}, CommNs: map[string]int64{"TP": 10e6}})
	}
	for s := 0; s < 2; s++ {
		var sum int64
		for _, r := range res.Ranks[4*s : 4*s+4] {
			sum += r.ComputeNs
		}
		res.Stages = append(res.Stages, result.StageStats{Stage: s, Ranks: []int{4 * s, 4*s + 1, 4*s + 2, 4*s + 3},
			ComputeNs: sum / 4, BubbleFraction: 0.2, IdealBubbleFraction: 1.0 / 9, ExposedNs: map[string]int64{"TP": 5e6}})
	}
	return res
}

func TestSlowRankNamedWithEvidence(t *testing.T) {
	res := fourByTwo([]int64{60, 61, 60, 59, 60, 72, 60, 61})
	b := Blame{Ns: map[int32]int64{5: 11e6}, Peers: map[int32]map[string]int64{5: {"TP all_reduce": 18e6}}}
	got := SlowRanks(figuresOf(res), b)
	if len(got) != 1 || got[0].Rank != 5 {
		t.Fatalf("SlowRanks = %+v, want rank 5 only", got)
	}
	s := got[0]
	if math.Abs(s.ComputeExcess-0.2) > 1e-9 || s.Score < 3.5 || s.BlameNs != 11e6 {
		t.Errorf("slow rank = %+v, want excess 0.20, score ≥ 3.5, blame 11 ms", s)
	}
	ev := strings.Join(prose.Sentences(res, s.Evidence), "; ")
	for _, want := range []string{"rank 5 (pp1 dp0 tp1, host node000 GPU 5)", "20 % slower than its 3 peers", "wait 18.0 ms per step in TP all_reduce"} {
		if !strings.Contains(ev, want) {
			t.Errorf("evidence %q lacks %q", ev, want)
		}
	}
}

func TestNoSlowRankUnderFivePercent(t *testing.T) {
	if got := SlowRanks(figuresOf(fourByTwo([]int64{60, 60, 60, 60, 60, 62, 60, 60})), Blame{}); len(got) != 0 {
		t.Fatalf("3 %% slower flagged: %+v", got)
	}
}

func TestImbalanceAndFindings(t *testing.T) {
	res := fourByTwo([]int64{60, 60, 60, 60, 78, 78, 78, 78})
	gain := imbalance(res)
	if res.BottleneckStage != 1 || math.Abs(res.StageImbalance-78.0/69) > 1e-9 {
		t.Fatalf("bottleneck %d imbalance %g", res.BottleneckStage, res.StageImbalance)
	}
	step := 100e6
	if want := int64(step * (1 - 69.0/78)); gain != want {
		t.Fatalf("gain %d, want %d", gain, want)
	}
	fs := Findings(figuresOf(res), Inputs{ImbalanceGainNs: gain, Problems: []Problem{{Kind: "tp_across_hosts", Says: result.Text("TP group 0,1 spans 2 hosts"), Ranks: []int32{0, 1}}}})
	kinds := []string{}
	for _, f := range fs {
		kinds = append(kinds, f.Kind)
	}
	want := []string{vocab.KindBubble, vocab.KindImbalance, vocab.KindExposedTP, vocab.KindTopology}
	if strings.Join(kinds, ",") != strings.Join(want, ",") {
		t.Fatalf("findings %v, want %v", kinds, want)
	}
	if fs[0].CostNs != 20e6 || fs[0].Severity != "high" || fs[0].CostShare != 0.2 || !strings.Contains(fs[0].Remedy, "microbatches") {
		t.Errorf("bubble finding %+v", fs[0])
	}
}

func TestFitAlphaBeta(t *testing.T) {
	x := []float64{1e3, 1e4, 1e5, 1e6}
	y := make([]float64, len(x))
	for i := range x {
		y[i] = 5000 + 0.02*x[i]
	}
	a, b := fitAlphaBeta(x, y)
	if math.Abs(a-5000) > 1e-6 || math.Abs(b-0.02) > 1e-12 {
		t.Fatalf("fit = %g, %g; want 5000, 0.02", a, b)
	}
	if a, b := fitAlphaBeta([]float64{8, 8}, []float64{10, 20}); a != 15 || b != 0 {
		t.Fatalf("one size: fit = %g, %g; want 15, 0", a, b)
	}
}

func TestTopologyDoesNotRecountExposedTP(t *testing.T) {
	res := fourByTwo([]int64{60, 60, 60, 60, 60, 60, 60, 60})
	fs := Findings(figuresOf(res), Inputs{Problems: []Problem{{Kind: "tp_across_hosts", Says: result.Text("TP group 0,1 spans 2 hosts"), Ranks: []int32{0, 1}}}})
	var topo, tp result.Finding
	for _, f := range fs {
		switch f.Kind {
		case vocab.KindTopology:
			topo = f
		case vocab.KindExposedTP:
			tp = f
		}
	}
	if tp.CostNs != 5e6 || topo.CostNs != 0 || topo.Severity != "low" || !strings.Contains(strings.Join(prose.Evidence(res, topo), ";"), "5.0 ms per step, counted under that finding") {
		t.Fatalf("exposed TP %+v, topology %+v: want the 5 ms counted once, under exposed TP", tp, topo)
	}
}

func TestBubbleNamesExcessOverIdeal(t *testing.T) {
	res := fourByTwo([]int64{60, 60, 60, 60, 78, 78, 78, 78})
	imbalance(res)
	fs := bubbleFinding(figuresOf(res))
	if len(fs) != 1 || !strings.Contains(strings.Join(prose.Evidence(res, fs[0]), ";"), "8.9 ms per step of it is above the ideal") {
		t.Fatalf("bubble finding %+v: want the 8.9 ms above the ideal 1/9 of a 100 ms step", fs)
	}
	balanced := fourByTwo([]int64{60, 60, 60, 60, 60, 60, 60, 60})
	imbalance(balanced)
	if ev := strings.Join(prose.Evidence(balanced, bubbleFinding(figuresOf(balanced))[0]), ";"); strings.Contains(ev, "above the ideal") {
		t.Errorf("excess blamed on imbalance without one: %s", ev)
	}
}

// TestRankPutsMissingFirstThenCost: the one ranking every step uses.
func TestRankPutsMissingFirstThenCost(t *testing.T) {
	fs := []result.Finding{{Kind: "a", CostNs: 1}, {Kind: "b", CostNs: 5}, {Kind: vocab.KindMissingRanks}, {Kind: "c", CostNs: 5}, {Kind: "d"}}
	Rank(fs)
	var got []string
	for _, f := range fs {
		got = append(got, f.Kind)
	}
	if want := []string{vocab.KindMissingRanks, "b", "c", "a", "d"}; !slices.Equal(got, want) {
		t.Errorf("Rank order %v, want %v", got, want)
	}
}

// TestExtraFindingsAreRanked: findings made outside diagnose are ranked
// with the others, not appended after the ranking.
func TestExtraFindingsAreRanked(t *testing.T) {
	res := fourByTwo([]int64{60, 60, 60, 60, 60, 60, 60, 60})
	extra := []result.Finding{{Kind: vocab.KindMemoryPeak, Severity: vocab.SevMedium}, {Kind: vocab.KindMissingRanks, Severity: vocab.SevHigh}}
	fs := Findings(figuresOf(res), Inputs{Extra: extra})
	if len(fs) < 3 || fs[0].Kind != vocab.KindMissingRanks || fs[len(fs)-1].Kind != vocab.KindMemoryPeak {
		t.Fatalf("findings %+v: want missing ranks first, the costless memory peak last", fs)
	}
}
