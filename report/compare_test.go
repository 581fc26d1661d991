package report

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/gate"
)

// TestCompareFlagsBubbleGrowth: a bubble 10 % longer per step regresses,
// as time and as fraction (its time cost grew).
func TestCompareFlagsBubbleGrowth(t *testing.T) {
	base, cur := fixed(), fixed()
	cur.Stages[0].BubbleFraction, cur.Stages[0].BubbleNs = 0.21*1.10, 25.2e6*1.10 // +10 %
	ds := Compare(base, cur, 0.05)
	var b bytes.Buffer
	if n := CompareText(&b, ds); n != 2 {
		t.Fatalf("%d regressions, want 2:\n%s", n, b.String())
	}
	if d := deltaNamed(t, ds, "stage 0 bubble"); !d.Regressed || d.ID != "stage[0].bubble_ns" || d.ChangeText() != "+10.0 %" {
		t.Errorf("stage 0 bubble time: %+v %s", d, d.ChangeText())
	}
	if d := deltaNamed(t, ds, "stage 0 bubble fraction"); !d.Regressed || d.ID != "stage[0].bubble_fraction" || d.ChangeText() != "+2.1 pp" {
		t.Errorf("stage 0 bubble fraction: %+v %s", d, d.ChangeText())
	}
	if n := CompareText(&bytes.Buffer{}, Compare(base, cur, 0.15)); n != 0 {
		t.Fatalf("10 %% growth flagged at a 15 %% threshold")
	}
}

// TestCompareFasterRunWithLargerBubbleFractionPasses: the step got 11.5 %
// faster and the bubble's time did not grow; its fraction rose because the
// step shrank. That passes, unless the user gates the fraction itself.
func TestCompareFasterRunWithLargerBubbleFractionPasses(t *testing.T) {
	base, cur := fixed(), fixed()
	base.Stages[0].BubbleFraction, base.Stages[0].BubbleNs = 0.10, 12e6
	cur.StepNs, cur.Stages[0].BubbleFraction, cur.Stages[0].BubbleNs = 106.6e6, 0.129, 11.9e6
	cur.Iterations = []result.Iteration{{Index: 3, DurationNs: 106e6}, {Index: 4, DurationNs: 107e6}}
	ds := Compare(base, cur, 0.05)
	if n := Regressions(ds); n != 0 {
		var b bytes.Buffer
		CompareText(&b, ds)
		t.Fatalf("a faster run failed the gate:\n%s", b.String())
	}
	if d := deltaNamed(t, ds, "stage 0 bubble fraction"); d.Gated || d.ChangeText() != "+2.9 pp" {
		t.Errorf("the fraction is gated or not in points: %+v %s", d, d.ChangeText())
	}
	sel, err := gate.ParseSelector("bubble_fraction")
	if err != nil {
		t.Fatal(err)
	}
	ds = CompareWith(base, cur, Options{Threshold: 0.05, Gates: []gate.Selector{sel}})
	if d := deltaNamed(t, ds, "stage 0 bubble fraction"); !d.Regressed || Regressions(ds) != 1 {
		t.Errorf("--gate bubble_fraction did not gate the fraction: %+v", d)
	}
}

// TestCompareNoiseIsTheStepsSpread: a step 2 ms longer regresses at a 1 %
// threshold when the steps agree, and not when they vary by ±5 ms.
func TestCompareNoiseIsTheStepsSpread(t *testing.T) {
	base, cur := fixed(), fixed()
	base.StepNs, cur.StepNs = 100e6, 102e6
	base.Iterations = []result.Iteration{{Index: 1, DurationNs: 100e6}, {Index: 2, DurationNs: 100.1e6}}
	cur.Iterations = []result.Iteration{{Index: 1, DurationNs: 102e6}, {Index: 2, DurationNs: 102.1e6}}
	if d := deltaNamed(t, Compare(base, cur, 0.01), "step"); !d.Regressed {
		t.Fatalf("a 2 ms step growth with steady steps: %+v", d)
	}
	cur.Iterations = []result.Iteration{{Index: 1, DurationNs: 97e6}, {Index: 2, DurationNs: 107e6}}
	d := deltaNamed(t, Compare(base, cur, 0.01), "step")
	if d.Regressed || math.Abs(d.Spread-5e6*math.Sqrt2) > 1 || d.SpreadText() != "±7.07 ms" {
		t.Errorf("a 2 ms growth within ±7 ms of spread: %+v %s", d, d.SpreadText())
	}
}

func TestCompareIgnoresTinyTimes(t *testing.T) {
	base, cur := fixed(), fixed()
	base.Ranks = []result.RankStats{{Rank: 0, ExposedNs: map[string]int64{}}}
	cur.Ranks = []result.RankStats{{Rank: 0, ExposedNs: map[string]int64{"DP": 100e3}}} // 0.1 ms from 0: under the floor
	if n := CompareText(&bytes.Buffer{}, Compare(base, cur, 0.05)); n != 0 {
		t.Fatal("a 0.1 ms exposed time regressed against a 120 ms step")
	}
	cur.Ranks[0].ExposedNs["DP"] = 5e6
	if n := CompareText(&bytes.Buffer{}, Compare(base, cur, 0.05)); n != 1 {
		t.Fatal("a 5 ms exposed DP time from 0 did not regress")
	}
}

// TestCompareExposedPPIsTheTransfer: a longer wait for the neighbour is a
// bubble change, not an exposed PP regression; a longer transfer is one.
func TestCompareExposedPPIsTheTransfer(t *testing.T) {
	base, cur := fixed(), fixed()
	rank := func(wait, transfer int64) []result.RankStats {
		return []result.RankStats{{Rank: 0, BubblePPWaitNs: wait, BubblePPTransferNs: transfer,
			ExposedNs: map[string]int64{"PP": wait + transfer}}}
	}
	base.Ranks, cur.Ranks = rank(20e6, 1e6), rank(30e6, 1e6)
	if n := CompareText(&bytes.Buffer{}, Compare(base, cur, 0.05)); n != 0 {
		t.Fatal("10 ms more PP wait flagged as exposed PP")
	}
	cur.Ranks = rank(20e6, 5e6)
	var b bytes.Buffer
	if n := CompareText(&b, Compare(base, cur, 0.05)); n != 1 || !strings.Contains(b.String(), "exposed PP") {
		t.Fatalf("4 ms more PP transfer not flagged:\n%s", b.String())
	}
}

// withRanks gives r four ranks with exposed TP of 4 ms, of it waitTP
// waiting for the last member.
func withRanks(r *result.Result, waitTP int64) *result.Result {
	for i := range 4 {
		r.Ranks = append(r.Ranks, result.RankStats{Rank: i, ExposedNs: map[string]int64{"TP": 4e6},
			ExposedWaitNs: map[string]int64{"TP": waitTP}})
	}
	return r
}

func deltaNamed(t *testing.T, ds []Delta, name string) Delta {
	t.Helper()
	for _, d := range ds {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no delta %q in %+v", name, ds)
	return Delta{}
}

func TestCompareNewlySlowRankIsARegression(t *testing.T) {
	base, cur := fixed(), fixed()
	cur.SlowRanks = []result.SlowRank{{Rank: 3, Score: 9, ComputeExcess: 0.2}}
	ds := Compare(base, cur, 0.05)
	if d := deltaNamed(t, ds, "slow rank 3"); !d.Regressed || d.Base != 0 || d.New != 1 || d.ChangeText() != "new" {
		t.Errorf("slow rank 3: %+v, change %q", d, d.ChangeText())
	}
	if n := Regressions(ds); n != 1 {
		t.Errorf("%d regressions, want 1 (the slow rank)", n)
	}
	ds = Compare(cur, base, 0.05)
	if d := deltaNamed(t, ds, "slow rank 3"); d.Regressed || !d.Improved || Regressions(ds) != 0 {
		t.Errorf("a rank no longer slow: %+v, %d regressions", d, Regressions(ds))
	}
}

func TestCompareNewlyLateRankFromItsFinding(t *testing.T) {
	base, cur := fixed(), fixed()
	cur.Findings = append(cur.Findings, result.Finding{Kind: vocab.KindLateRank, CostNs: 3e6, Ranks: []int{2}})
	ds := Compare(base, cur, 0.05)
	if d := deltaNamed(t, ds, "late rank 2"); !d.Regressed {
		t.Errorf("late rank 2 not a regression: %+v", d)
	}
	for _, d := range ds {
		if strings.Contains(d.Name, "finding late_rank") {
			t.Errorf("the late rank is listed twice: %q", d.Name)
		}
	}
}

func TestCompareExposedWaitPerAxis(t *testing.T) {
	base, cur := withRanks(fixed(), 0.5e6), withRanks(fixed(), 2.5e6)
	ds := Compare(base, cur, 0.05)
	d := deltaNamed(t, ds, "exposed wait TP")
	if !d.Regressed || d.Base != 0.5e6 || d.New != 2.5e6 {
		t.Errorf("exposed wait TP 0.5 → 2.5 ms: %+v", d)
	}
	if e := deltaNamed(t, ds, "exposed TP"); e.Regressed || e.Change() != 0 {
		t.Errorf("exposed TP did not change but %+v", e)
	}
}

// TestCompareImprovementNeverFails: a faster step, a smaller bubble and a
// slow rank gone are improvements, shown with a negative change.
func TestCompareImprovementNeverFails(t *testing.T) {
	base, cur := fixed(), fixed()
	base.SlowRanks = []result.SlowRank{{Rank: 1}}
	cur.StepNs, cur.Stages[0].BubbleFraction, cur.Stages[0].BubbleNs = 100e6, 0.15, 15e6
	ds := Compare(base, cur, 0.05)
	var b bytes.Buffer
	if n := CompareText(&b, ds); n != 0 {
		t.Fatalf("%d regressions from an improvement:\n%s", n, b.String())
	}
	for _, name := range []string{"step", "stage 0 bubble", "slow rank 1"} {
		if d := deltaNamed(t, ds, name); !d.Improved || d.Change() >= 0 {
			t.Errorf("%s: %+v", name, d)
		}
	}
	if !regexp.MustCompile(`-17\.0 % +±707 µs +improved`).MatchString(b.String()) {
		t.Errorf("the step's -17.0 %% is not shown as improved:\n%s", b.String())
	}
}

// TestCompareFindingsOfOneRun: a finding of a new kind that costs time
// regresses; one of a known kind about other ranks, or without cost, is
// shown and does not; one that disappears is an improvement.
func TestCompareFindingsOfOneRun(t *testing.T) {
	base, cur := fixed(), fixed()
	pair := func(a, b int) result.Finding {
		return result.Finding{Kind: vocab.KindRankPair, CostNs: 2e6, Ranks: []int{a, b}}
	}
	base.Findings = append(base.Findings, pair(0, 1))
	cur.Findings = append(cur.Findings, pair(2, 3), result.Finding{Kind: vocab.KindTopology, Ranks: []int{4, 5}},
		result.Finding{Kind: vocab.KindGPUIdle, CostNs: 6e6, Ranks: []int{7}})
	cur.Findings[0].Ranks = []int{0, 1, 2} // the bubble's ranks moved: not a finding of its own
	ds := Compare(base, cur, 0.05)
	want := map[string][2]bool{ // regressed, improved
		"finding rank_pair_difference (ranks 0-1)": {false, true},
		"finding rank_pair_difference (ranks 2-3)": {false, false},
		"finding topology (ranks 4-5)":             {false, false},
		"finding gpu_idle":                         {true, false},
	}
	n := 0
	for _, d := range ds {
		if d.Kind != DeltaFinding {
			continue
		}
		n++
		if w, ok := want[d.Name]; !ok || w != [2]bool{d.Regressed, d.Improved} {
			t.Errorf("%s: regressed %v improved %v, want %v (listed %v)", d.Name, d.Regressed, d.Improved, w, ok)
		}
	}
	if n != len(want) {
		t.Errorf("%d finding deltas, want %d", n, len(want))
	}
}

// mixed is a comparison with a bubble regression, a newly slow rank, a
// faster step and a finding that disappears.
func mixed() *Comparison {
	base, cur := fixed(), fixed()
	base.Findings = append(base.Findings, result.Finding{Kind: vocab.KindExposedDP, CostNs: 3e6})
	cur.StepNs, cur.Stages[1].BubbleFraction, cur.Stages[1].BubbleNs = 110e6, 0.18, 19.8e6
	cur.SlowRanks = []result.SlowRank{{Rank: 2, Score: 8, ComputeExcess: 0.2}}
	return NewComparison("nightly/base.json", base, "run/new.json", cur, 0.05)
}

func TestCompareMarkdownGolden(t *testing.T) {
	var b bytes.Buffer
	n, err := WriteComparison(&b, mixed(), "markdown")
	if err != nil || n != 3 {
		t.Fatalf("%d regressions, %v; want 3", n, err)
	}
	_, table, _ := strings.Cut(b.String(), "|---|--:|--:|--:|--:|---|\n")
	rows := strings.Split(table, "\n")
	if len(rows) < 4 || !strings.HasSuffix(rows[0], "**REGRESSION** |") || !strings.HasSuffix(rows[2], "**REGRESSION** |") || !strings.HasSuffix(rows[3], "improved |") {
		t.Errorf("regressions are not first, then improvements:\n%s", b.String())
	}
	golden(t, "compare.md", b.Bytes())
}

func TestCompareJSONGolden(t *testing.T) {
	var b bytes.Buffer
	if _, err := WriteComparison(&b, mixed(), "json"); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Regressions int
		Base, New   Run
		Deltas      []struct {
			ID, Name          string
			Base, New, Change float64
			ChangePP          float64 `json:"change_pp"`
			Regressed         bool
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Regressions != 3 || doc.Base.Input != "nightly/base.json" || doc.New.Layout != "TP2 PP2 DP1" || doc.New.Steps != "3-4 (2)" {
		t.Errorf("header: %+v", doc)
	}
	for _, d := range doc.Deltas {
		if d.ID == "stage[1].bubble_fraction" && (!d.Regressed || math.Abs(d.Change-0.5) > 1e-9 || math.Abs(d.ChangePP-6) > 1e-9 || d.Name != "stage 1 bubble fraction") {
			t.Errorf("stage 1 bubble 12 → 18 %%: %+v", d)
		}
	}
	golden(t, "compare.json", b.Bytes())
}

func TestCompareWarnsOnDifferentLayouts(t *testing.T) {
	base, cur := fixed(), fixed()
	cur.Layout.DP = 2
	c := NewComparison("a", base, "b", cur, 0.05)
	var b bytes.Buffer
	if _, err := WriteComparison(&b, c, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "warning: layout differs: base TP2 PP2 DP1, new TP2 PP2 DP2") {
		t.Errorf("no layout warning:\n%s", b.String())
	}
	if _, err := WriteComparison(&b, c, "yaml"); err == nil {
		t.Error("an unknown format was accepted")
	}
}

// TestCompareIgnoresTinyBubbles: a bubble fraction must grow by more than
// half a percentage point, however large the relative change.
func TestCompareIgnoresTinyBubbles(t *testing.T) {
	base, cur := fixed(), fixed()
	base.Stages[0].BubbleFraction, cur.Stages[0].BubbleFraction = 0.002, 0.006 // +200 %, 0.4 point
	cur.Stages[0].BubbleNs = 30e6
	if d := deltaNamed(t, Compare(base, cur, 0.05), "stage 0 bubble fraction"); d.Regressed || !d.Gated {
		t.Errorf("0.2 %% → 0.6 %% regressed (or was not gated with its time grown): %+v", d)
	}
	cur.Stages[0].BubbleFraction = 0.008
	if d := deltaNamed(t, Compare(base, cur, 0.05), "stage 0 bubble fraction"); !d.Regressed {
		t.Errorf("0.2 %% → 0.8 %% did not regress: %+v", d)
	}
}

// TestCompareBubbleNetOfTheStagesWork: a stage computing 4 ms less waits
// 4 ms more in its bubble without the step changing: no regression; the
// same bubble growth with the compute unchanged is one.
func TestCompareBubbleNetOfTheStagesWork(t *testing.T) {
	base, cur := fixed(), fixed()
	cur.Stages[0].BubbleNs, cur.Stages[0].ComputeNs = base.Stages[0].BubbleNs+4e6, base.Stages[0].ComputeNs-4e6
	if d := deltaNamed(t, Compare(base, cur, 0.05), "stage 0 bubble"); d.Regressed || d.ChangeText() != "+15.9 %" {
		t.Errorf("bubble grown by the compute freed: %+v %s", d, d.ChangeText())
	}
	cur.Stages[0].ComputeNs = base.Stages[0].ComputeNs
	if d := deltaNamed(t, Compare(base, cur, 0.05), "stage 0 bubble"); !d.Regressed {
		t.Errorf("bubble grown with the same compute: %+v", d)
	}
}

// TestCompareSaysWhichKernelsChanged: kernels only the new run has are
// added, only the base removed, and those that grew are listed by growth,
// in text and JSON.
func TestCompareSaysWhichKernelsChanged(t *testing.T) {
	base, cur := fixed(), fixed()
	base.Kernels = []result.KernelStat{{Name: "gemm", TimeNs: 10e6}, {Name: "softmax", TimeNs: 5e6}, {Name: "old_kernel", TimeNs: 1e6}}
	cur.Kernels = []result.KernelStat{{Name: "gemm", TimeNs: 12e6}, {Name: "softmax", TimeNs: 5e6}, {Name: "flash_fwd", TimeNs: 3e6}}
	c := NewComparison("a", base, "b", cur, 0.05)
	ch := c.Changes
	if len(ch.KernelsAdded) != 1 || ch.KernelsAdded[0].Name != "flash_fwd" || len(ch.KernelsRemoved) != 1 || ch.KernelsRemoved[0].Name != "old_kernel" ||
		len(ch.KernelsGrown) != 1 || ch.KernelsGrown[0] != (KernelChange{"gemm", 10e6, 12e6}) {
		t.Fatalf("changes %+v", ch)
	}
	var b bytes.Buffer
	if _, err := WriteComparison(&b, c, "text"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"kernels added (1): flash_fwd 3.00 ms", "kernels removed (1): old_kernel 1.00 ms", "kernels grown most (1): gemm +2.00 ms (10.0 ms → 12.0 ms)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	WriteComparison(&b, c, "json")
	var doc struct {
		Changes struct {
			Added []KernelChange `json:"kernels_added"`
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || len(doc.Changes.Added) != 1 {
		t.Errorf("json changes: %v %+v", err, doc)
	}
	base.Kernels = nil
	if ch := NewComparison("a", base, "b", cur, 0.05).Changes; len(ch.KernelsAdded) != 0 {
		t.Errorf("a base without kernels: every kernel added: %+v", ch)
	}
}

// TestComparePeriod: the step period is compared when both runs have it,
// with its own spread from rank_steps.
func TestComparePeriod(t *testing.T) {
	base, cur := fixed(), fixed()
	if slices.ContainsFunc(Compare(base, cur, 0.05), func(d Delta) bool { return d.ID == "period_ns" }) {
		t.Fatal("a period compared without one")
	}
	base.PeriodNs, cur.PeriodNs = 100e6, 110e6
	for it, ns := range []int64{99e6, 101e6} {
		base.RankSteps = append(base.RankSteps, result.RankStep{Rank: 0, Iteration: it, StepNs: ns})
	}
	d := deltaNamed(t, Compare(base, cur, 0.05), "step period")
	if d.ID != "period_ns" || !d.Regressed || math.Abs(d.Spread-math.Sqrt2*1e6) > 1 {
		t.Errorf("period 100 → 110 ms: %+v", d)
	}
}
