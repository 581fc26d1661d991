package diagnose

import (
	"math"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
)

// lateArrival: rank 2 of fourByTwo's first stage arrives last at 14 of its
// 16 DP all-reduces (groups of 2), 1 ms late each time, its GPU idle 900
// µs before; its peers' exposed wait is 9 ms per step of which it causes 8.
func lateArrival() Arrival {
	a := Arrival{Rank: 2, Axis: "DP", Members: 32, Instances: 16, Last: 14, Ops: map[string]int{"DP all_reduce": 14},
		CausedNs: 8e6, PeerWaitNs: 9e6, BlameNs: 8e6}
	for range 14 {
		a.Lateness = append(a.Lateness, 1e6)
		a.Gaps = append(a.Gaps, 9e5)
	}
	return a
}

func TestLateRankNamedAndClaimsTheWait(t *testing.T) {
	res := fourByTwo([]int64{60, 60, 60, 60, 60, 60, 60, 60})
	for i := range res.Ranks {
		res.Ranks[i].ExposedNs["DP"] = 3e6
		res.Ranks[i].ExposedTransferNs = map[string]int64{"TP": 5e6, "DP": 1e6}
	}
	fs := Findings(figuresOf(res), Inputs{Arrivals: []Arrival{lateArrival()}})
	late, ok := findingByKind(fs, vocab.KindLateRank)
	if !ok || len(late.Ranks) != 1 || late.Ranks[0] != 2 || late.CostNs != 1e6 {
		t.Fatalf("late finding %+v, want rank 2 costing 8 ms / 8 ranks = 1 ms", late)
	}
	ev := strings.Join(prose.Evidence(res, late), "; ")
	for _, want := range []string{"14 of the 16 DP collectives", "a median 1.0 ms after the second latest", "89 % of their exposed wait",
		"idle a median 900 µs right before", "its host launches them late", "not under exposed DP"} {
		if !strings.Contains(ev, want) {
			t.Errorf("evidence %q lacks %q", ev, want)
		}
	}
	dp, _ := findingByKind(fs, vocab.KindExposedDP)
	if dp.CostNs != 2e6 || !strings.Contains(strings.Join(prose.Evidence(res, dp), "; "), "is for late rank 2") {
		t.Errorf("exposed DP %+v: want 3 ms − 1 ms claimed by late rank 2", dp)
	}
}

func TestLateRankCriteria(t *testing.T) {
	res := fourByTwo([]int64{60, 60, 60, 60, 60, 60, 60, 60})
	for _, c := range []struct {
		name string
		edit func(a *Arrival, res *result.Result)
		want bool
	}{
		{"late", func(*Arrival, *result.Result) {}, true},
		{"no majority", func(a *Arrival, _ *result.Result) { a.Last, a.Lateness, a.Gaps = 9, a.Lateness[:9], a.Gaps[:9] }, false},
		{"chance in pairs", func(a *Arrival, _ *result.Result) { a.Instances, a.Members, a.Last = 4, 8, 3 }, false},
		{"small share of the wait", func(a *Arrival, _ *result.Result) { a.PeerWaitNs = 50e6 }, false},
		{"cheap", func(a *Arrival, _ *result.Result) { a.CausedNs, a.PeerWaitNs = 4e5, 5e5 }, false},
		{"slow rank", func(_ *Arrival, r *result.Result) { r.SlowRanks = []result.SlowRank{{Rank: 2}} }, false},
		{"compute explains", func(_ *Arrival, r *result.Result) { r.Ranks[2].ComputeNs += 5e6 }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := *res
			r.Ranks = append([]result.RankStats(nil), res.Ranks...)
			a := lateArrival()
			c.edit(&a, &r)
			got := LateRanks(figuresOf(&r), []Arrival{a})
			if (len(got) == 1) != c.want {
				t.Errorf("LateRanks = %+v, want named %v", got, c.want)
			}
		})
	}
}

func TestBinomTail(t *testing.T) {
	for _, c := range []struct {
		n, k int
		p    float64
		want float64
	}{
		{8, 8, 0.5, 1.0 / 256}, {8, 7, 0.5, 9.0 / 256}, {4, 0, 0.3, 1}, {3, 1, 0.5, 7.0 / 8}, {8, 5, 0.125, 0.00123},
	} {
		if got := binomTail(c.n, c.k, c.p); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("binomTail(%d, %d, %g) = %g, want %g", c.n, c.k, c.p, got, c.want)
		}
	}
}

func findingByKind(fs []result.Finding, kind string) (result.Finding, bool) {
	for _, f := range fs {
		if f.Kind == kind {
			return f, true
		}
	}
	return result.Finding{}, false
}
