package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// noPipeline is a hand-written Result of a job without a pipeline (PP = 1),
// analysed over one step, whose passes were not found.
func noPipeline() *result.Result {
	return &result.Result{
		SchemaVersion: result.SchemaVersion, Tool: "tpptrace test", WorldSize: 8,
		Layout:   result.Layout{TP: 1, PP: 1, DP: 8, Order: "tp-cp-ep-dp-pp", By: "traffic"},
		Schedule: "none", StepNs: 20_800_000, BottleneckStage: 0, StageImbalance: 1,
		Iterations: []result.Iteration{{Index: 0, DurationNs: 20.8e6}},
		Stages: []result.StageStats{{Stage: 0, Ranks: []int{0, 1, 2, 3, 4, 5, 6, 7}, ComputeNs: 1.11e6, BubbleNs: 9.04e6,
			BubbleFraction: 0.583, ExposedNs: map[string]int64{"TP": 0, "DP": 5.86e6}}},
		Findings: []result.Finding{{Kind: result.KindLateRank, Severity: "low", CostNs: 1.13e6, CostShare: 0.054,
			Summary: "late rank: rank 7 arrives last at its DP collectives", Evidence: []string{"it arrives last at 5 of the 8 DP collectives"}}},
	}
}

// TestTextWithoutPipeline: with PP = 1 the stage table shows idle time,
// not a bubble against an ideal, no empty pass columns, and one step is
// "1 step".
func TestTextWithoutPipeline(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, noPipeline(), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"bubble", "ideal", "fwd ms", "PP xfer", "(1 steps)"} {
		if strings.Contains(out, bad) {
			t.Errorf("text without a pipeline holds %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"(1 step)", "idle ms", "9.04  58.3 %", "no pipeline (PP = 1)"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	golden(t, "text_nopipeline.golden", b.Bytes())
}

// TestIdleTableShowsPassesWhenFound: forward and backward columns come
// back when the passes of a job without a pipeline were found.
func TestIdleTableShowsPassesWhenFound(t *testing.T) {
	res := noPipeline()
	res.Stages[0].ForwardNs, res.Stages[0].BackwardNs = 0.4e6, 0.7e6
	var b bytes.Buffer
	stageTable(&b, res)
	if !strings.Contains(b.String(), "fwd ms") || !strings.Contains(b.String(), "0.40") {
		t.Errorf("no pass columns:\n%s", b.String())
	}
}
