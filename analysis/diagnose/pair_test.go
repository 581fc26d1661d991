package diagnose

import (
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
)

// twoPerStage is a TP2 PP2 DP1 result: each stage has two ranks.
func twoPerStage(computeMs []int64) *result.Result {
	res := &result.Result{StepNs: 100e6, Layout: result.Layout{TP: 2, PP: 2, DP: 1}}
	for r, c := range computeMs {
		res.Ranks = append(res.Ranks, result.RankStats{Rank: r, TP: r % 2, PP: r / 2, LocalGPU: r, ComputeNs: c * 1e6})
	}
	res.Stages = []result.StageStats{{Stage: 0, Ranks: []int{0, 1}}, {Stage: 1, Ranks: []int{2, 3}}}
	return res
}

func TestTwoRanksNeverNamedSlowByScore(t *testing.T) {
	res := twoPerStage([]int64{60, 60, 60, 78})
	b := Blame{Ns: map[int32]int64{3: 15e6}}
	if got := SlowRanks(figuresOf(res), b); len(got) != 0 {
		t.Fatalf("a rank with one peer was named slow: %+v", got)
	}
	notes := PairNotes(figuresOf(res), b)
	if len(notes) != 1 {
		t.Fatalf("PairNotes = %+v, want one note for ranks 2 and 3", notes)
	}
	n := notes[0]
	if n.Kind != vocab.KindRankPair || n.Severity != "low" || n.CostNs != 15e6 || n.Ranks[0] != 3 {
		t.Errorf("note %+v", n)
	}
	if !strings.Contains(prose.Headline(res, n), "ranks 2 and 3 differ by 30 %") {
		t.Errorf("summary %q", prose.Headline(res, n))
	}
	fs := Findings(figuresOf(res), Inputs{Blame: b})
	for _, f := range fs {
		if f.Kind == vocab.KindRankPair && f.Severity != "low" {
			t.Errorf("Findings regraded the note: %+v", f)
		}
	}
}

func TestPairNoteNeedsClearBlame(t *testing.T) {
	res := twoPerStage([]int64{60, 60, 60, 78})
	for name, b := range map[string]Blame{
		"none":      {},
		"both":      {Ns: map[int32]int64{2: 6e6, 3: 9e6}},
		"fast rank": {Ns: map[int32]int64{2: 9e6}},
	} {
		if got := PairNotes(figuresOf(res), b); len(got) != 0 {
			t.Errorf("%s: note without clear blame on the slower rank: %+v", name, got)
		}
	}
	if got := PairNotes(figuresOf(twoPerStage([]int64{60, 60, 60, 62})), Blame{Ns: map[int32]int64{3: 1e6}}); len(got) != 0 {
		t.Errorf("3 %% difference noted: %+v", got)
	}
}

func TestThreeRanksStillScored(t *testing.T) {
	res := fourByTwo([]int64{60, 61, 60, 59, 60, 72, 60, 61})
	res.Ranks = res.Ranks[:7] // stage 1 has ranks 4, 5, 6
	res.Stages[1].Ranks = []int{4, 5, 6}
	got := SlowRanks(figuresOf(res), Blame{})
	if len(got) != 1 || got[0].Rank != 5 {
		t.Fatalf("SlowRanks = %+v, want rank 5 (2 peers suffice)", got)
	}
}

func TestThrottleFindingsEvenWhenNotSlow(t *testing.T) {
	res := twoPerStage([]int64{60, 60, 60, 60})
	res.Ranks[0].GPU = &result.GPUStats{Samples: 9, SMClockMHz: 1980, ClockReasons: 4} // SW power cap only: not throttled
	res.Ranks[1].GPU = &result.GPUStats{Samples: 9, SMClockMHz: 1500, ClockReasons: 128}
	res.Ranks[2].GPU = &result.GPUStats{Samples: 9, SMClockMHz: 1980, XIDs: []int32{79}}
	fs := throttleFindings(figuresOf(res), map[int]result.Statement{1: result.Text("GPU node000/1: SM clock 1,500 MHz")})
	if len(fs) != 2 || fs[0].Ranks[0] != 1 || fs[1].Ranks[0] != 2 {
		t.Fatalf("throttle findings %+v, want ranks 1 and 2", fs)
	}
	if fs[0].Severity != "medium" || !strings.Contains(prose.Headline(res, fs[0]), "HW slowdown: power brake") || len(fs[0].Evidence) != 1 {
		t.Errorf("power brake finding %+v", fs[0])
	}
	if fs[1].Severity != "high" || !strings.Contains(prose.Headline(res, fs[1]), "XID 79") {
		t.Errorf("XID finding %+v", fs[1])
	}
}
