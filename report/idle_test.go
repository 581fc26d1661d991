package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// noPipeline is a hand-written Result of a job without a pipeline (PP = 1)
// of 8 ranks, analysed over one step, whose passes were not found: every
// rank computes 1.1 ms and idles 9 ms; rank 7 idles 16 ms; every rank
// exposes 1.2 ms of DP all-reduce and 4 ms of embedding all-to-all (A2A).
func noPipeline() *result.Result {
	res := &result.Result{
		SchemaVersion: result.SchemaVersion, Tool: "tpptrace test", WorldSize: 8,
		Layout:   result.Layout{TP: 1, PP: 1, DP: 8, Order: "tp-cp-ep-dp-pp", By: "traffic"},
		Schedule: "none", StepNs: 20_800_000, BottleneckStage: 0, StageImbalance: 1,
		Iterations: []result.Iteration{{Index: 0, DurationNs: 20.8e6}},
		Stages: []result.StageStats{{Stage: 0, Ranks: []int{0, 1, 2, 3, 4, 5, 6, 7}, ComputeNs: 1.1e6, BubbleNs: 9.9e6,
			BubbleFraction: 0.475, ExposedNs: map[string]int64{"TP": 0, "DP": 1.2e6, "A2A": 4e6}}},
		Findings: []result.Finding{{Kind: vocab.KindLateRank, Severity: "low", CostNs: 1.13e6, CostShare: 0.054, Stages: []int{0},
			Headline: result.Text("late rank: rank 7 arrives last at its A2A collectives"), Evidence: []result.Statement{result.Text("it arrives last at 4 of the 5 A2A collectives")}}},
	}
	for r := range 8 {
		idle := int64(9e6)
		if r == 7 {
			idle = 16e6
		}
		res.Ranks = append(res.Ranks, result.RankStats{Rank: r, DP: r, StepNs: 20.8e6, ComputeNs: 1.1e6, IdleNs: idle,
			CommNs:    map[string]int64{"TP": 0, "PP": 0, "DP": 1.3e6, "A2A": 4.7e6},
			ExposedNs: map[string]int64{"TP": 0, "PP": 0, "DP": 1.2e6, "A2A": 4e6}})
	}
	return res
}

// pipelineWords are the words a job without a pipeline must not be
// described in.
var pipelineWords = regexp.MustCompile(`(?i)bubble|stage|microbatch|schedule|ideal|interleav|PP xfer`)

// TestTextWithoutPipeline: with PP = 1 the text has no pipeline words; it
// shows a row per rank (compute, idle, exposed DP and A2A, no TP column as
// no rank runs TP), the mean, and "1 step".
func TestTextWithoutPipeline(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, noPipeline(), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if m := pipelineWords.FindAllString(out, -1); len(m) > 0 {
		t.Errorf("text without a pipeline holds %q:\n%s", m, out)
	}
	for _, want := range []string{"(1 step)", "no pipeline", "  rank  compute ms  idle ms", "exp DP ms  exp A2A ms",
		"\n     7        1.10    16.00  76.9 %       1.20        4.00\n", "\n  mean        1.10     9.88  47.5 %       1.20        4.00\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "exp TP") || strings.Contains(out, "fwd ms") {
		t.Errorf("text has a column for an axis or pass it does not have:\n%s", out)
	}
	golden(t, "text_nopipeline.golden", b.Bytes())
}

// TestRankTableShowsPassesWhenFound: the forward and backward compute of
// a job without a pipeline come back, as a line, when the passes were found.
func TestRankTableShowsPassesWhenFound(t *testing.T) {
	res := noPipeline()
	res.Stages[0].ForwardNs, res.Stages[0].BackwardNs = 0.4e6, 0.7e6
	var b bytes.Buffer
	stageTable(&b, res)
	if !strings.Contains(b.String(), "forward 0.40 ms, backward 0.70 ms") {
		t.Errorf("no passes line:\n%s", b.String())
	}
}

// TestRankTableWithoutRanks: a Result holding its one stage but no ranks
// still gets its table, one row of the stage's figures.
func TestRankTableWithoutRanks(t *testing.T) {
	res := noPipeline()
	res.Ranks = nil
	var b bytes.Buffer
	stageTable(&b, res)
	if !strings.Contains(b.String(), "all        1.10     9.90  47.5 %") || pipelineWords.MatchString(b.String()) {
		t.Errorf("table from the stage:\n%s", b.String())
	}
}

// TestRankRowsByReplica: past 32 ranks the rows are data-parallel
// replicas (the ranks of one dp coordinate), their figures the mean.
func TestRankRowsByReplica(t *testing.T) {
	res := &result.Result{Layout: result.Layout{TP: 8, PP: 1, DP: 8}}
	for r := range 64 {
		res.Ranks = append(res.Ranks, result.RankStats{Rank: r, TP: r % 8, DP: r / 8, StepNs: 10e6, IdleNs: int64(r / 8 * 1e6),
			CommNs: map[string]int64{"TP": 1}, ExposedNs: map[string]int64{"TP": int64(r % 8)}})
	}
	tab := RankRows(res)
	if tab.Unit != "dp replica" || len(tab.Rows) != 8 || tab.Rows[3].Label != "dp 3" || tab.Rows[3].IdleNs != 3e6 ||
		tab.Rows[3].ExposedNs["TP"] != 3 || len(tab.Rows[3].Ranks) != 8 {
		t.Fatalf("table %+v, want 8 dp replicas, replica 3 idle 3 ms, exposed TP 3 ns (mean of 0..7)", tab)
	}
}

// TestCompareWithoutPipeline: two runs without a pipeline compare their
// idle GPU share, compute and exposed A2A, with no stage figure, and the
// run line says "no pipeline"; a slower run's idle regresses.
func TestCompareWithoutPipeline(t *testing.T) {
	base, cur := noPipeline(), noPipeline()
	cur.Stages[0].BubbleFraction, cur.Stages[0].BubbleNs = 0.6, 12.5e6
	c := NewComparison("base.json", base, "new.json", cur, 0.05)
	names := map[string]Delta{}
	for _, d := range c.Deltas {
		names[d.Name] = d
		if pipelineWords.MatchString(d.Name) {
			t.Errorf("figure %q of runs without a pipeline", d.Name)
		}
	}
	for _, want := range []string{"idle GPU", "compute", "exposed A2A"} {
		if _, ok := names[want]; !ok {
			t.Errorf("no %q figure among %v", want, c.Deltas)
		}
	}
	if !names["idle GPU"].Regressed || !names["idle GPU fraction"].Regressed {
		t.Errorf("idle 47.5 %% → 60 %% did not regress: %+v", names["idle GPU fraction"])
	}
	if s := c.Base.String(); !strings.Contains(s, "no pipeline") || pipelineWords.MatchString(s) {
		t.Errorf("run line %q", s)
	}
}
