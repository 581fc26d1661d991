package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
)

func TestCompareFlagsBubbleGrowth(t *testing.T) {
	base, cur := fixed(), fixed()
	cur.Stages[0].BubbleFraction = 0.21 * 1.10 // +10 %
	ds := Compare(base, cur, 0.05)
	var b bytes.Buffer
	if n := CompareText(&b, ds); n != 1 {
		t.Fatalf("%d regressions, want 1:\n%s", n, b.String())
	}
	if !strings.Contains(b.String(), "stage 0 bubble") || !strings.Contains(b.String(), "+10.0 %  REGRESSION") {
		t.Fatalf("table lacks the bubble regression:\n%s", b.String())
	}
	if n := CompareText(&bytes.Buffer{}, Compare(base, cur, 0.15)); n != 0 {
		t.Fatalf("10 %% growth flagged at a 15 %% threshold")
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
