package diagnose

import (
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
)

func idleResult(pp int, idle ...int64) *result.Result {
	res := &result.Result{StepNs: 100_000_000, Layout: result.Layout{TP: 1, PP: pp, DP: len(idle)}}
	for i, ns := range idle {
		res.Ranks = append(res.Ranks, result.RankStats{Rank: i, StepNs: 100_000_000, IdleNs: ns, ComputeNs: 100_000_000 - ns})
	}
	return res
}

func TestIdleFindingWithoutPipeline(t *testing.T) {
	res := idleResult(1, 60_000_000, 40_000_000)
	fs := idleFinding(figuresOf(res))
	if len(fs) != 1 || fs[0].Kind != vocab.KindGPUIdle || fs[0].CostNs != 50_000_000 {
		t.Fatalf("want one gpu_idle finding costing the mean idle (50 ms), got %+v", fs)
	}
	if fs[0].Ranks[0] != 0 || !strings.Contains(prose.Evidence(res, fs[0])[0], "rank 0: idle 60.0 ms") {
		t.Fatalf("the most idle rank comes first with its figures: %+v", fs[0])
	}
}

func TestNoIdleFindingWithPipelineOrLittleIdle(t *testing.T) {
	if fs := idleFinding(figuresOf(idleResult(4, 60_000_000, 40_000_000))); len(fs) != 0 {
		t.Fatalf("with a pipeline, idle time belongs to the bubble finding: %+v", fs)
	}
	if fs := idleFinding(figuresOf(idleResult(1, 2_000_000, 1_000_000))); len(fs) != 0 {
		t.Fatalf("1.5 %% idle is not a finding: %+v", fs)
	}
}
