package html

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// noPipelineResult is a hand-written 4-rank job without a pipeline: DP
// all-reduce and an embedding all-to-all (A2A), rank 3 idle longest.
func noPipelineResult() *result.Result {
	r := &result.Result{SchemaVersion: result.SchemaVersion, Tool: "tpptrace test", WorldSize: 4, Schedule: "none", StepNs: 10e6,
		Layout: result.Layout{TP: 1, PP: 1, DP: 4, Order: "tp-cp-ep-dp-pp", By: "traffic"},
		Stages: []result.StageStats{{Stage: 0, Ranks: []int{0, 1, 2, 3}, ComputeNs: 2e6, BubbleNs: 5e6, BubbleFraction: 0.5}},
		Findings: []result.Finding{{Kind: vocab.KindGPUIdle, Severity: "high", CostNs: 5e6, CostShare: 0.5, Ranks: []int{3, 0},
			Stages: []int{0}, Headline: result.Text("idle GPU: no kernel runs 5.0 ms per step")}}}
	for i := range 4 {
		idle := int64(4e6)
		if i == 3 {
			idle = 8e6
		}
		r.Ranks = append(r.Ranks, result.RankStats{Rank: i, DP: i, StepNs: 10e6, ComputeNs: 2e6, IdleNs: idle,
			CommNs: map[string]int64{"DP": 1e6, "A2A": 2e6}, ExposedNs: map[string]int64{"DP": 5e5, "A2A": 1.5e6}})
	}
	return r
}

var pipelineWords = regexp.MustCompile(`(?i)bubble|stage|microbatch|schedule|interleav`)

// TestNoPipelineReports: the Markdown and the HTML body of a job without
// a pipeline name no stage, bubble, microbatch or schedule (not even in a
// finding's "Where"), say "pipeline: none", and hold a rank table with the
// exposed DP and A2A columns and the mean row.
func TestNoPipelineReports(t *testing.T) {
	r := noPipelineResult()
	figs, err := Render(r)
	if err != nil {
		t.Fatal(err)
	}
	var md, page strings.Builder
	if err := Markdown(&md, r, figs, "figures"); err != nil {
		t.Fatal(err)
	}
	if err := Page(&page, r, figs); err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(page.String(), "</style>")
	body = regexp.MustCompile(`base64,[^"]*`).ReplaceAllString(body, "")
	for name, c := range map[string]struct {
		out  string
		want []string
	}{
		"markdown": {md.String(), []string{"| pipeline | none (PP = 1) |", "| rank | compute | idle GPU | idle share | exposed DP | exposed A2A |",
			"| 3 | 2.00 ms | 8.00 ms | 80.0 % | 500 µs | 1.50 ms |", "| mean | 2.00 ms | 5.00 ms | 50.0 % |", "Where: ranks 3, 0. `gpu_idle`", "## Per-rank breakdown"}},
		"page": {body, []string{"<th>pipeline</th><td>none (PP = 1)</td>", "<h2>Ranks</h2>", "<th>exposed A2A</th>", "<td>mean</td>"}},
	} {
		if w := pipelineWords.FindAllString(c.out, -1); len(w) > 0 {
			t.Errorf("%s holds %q:\n%s", name, w, c.out)
		}
		for _, s := range c.want {
			if !strings.Contains(c.out, s) {
				t.Errorf("%s lacks %q:\n%s", name, s, c.out)
			}
		}
	}
}
