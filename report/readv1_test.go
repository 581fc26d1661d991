package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/prose"
)

const v1Result = `{"schema_version": 1, "schema_minor": 1, "tool": "tpptrace 0.9", "world_size": 2, "step_ns": 100000000,
 "layout": {"tp": 1, "pp": 2, "dp": 1, "order": "tp-cp-ep-dp-pp", "by": "flags"},
 "ranks": [{"rank": 0, "step_ns": 100000000}, {"rank": 1, "step_ns": 100000000}],
 "slow_ranks": [{"rank": 1, "score": 9, "compute_excess": 0.3, "blame_ns": 5000000, "evidence": ["rank 1: compute 30 % slower"]}],
 "findings": [{"kind": "pipeline_bubble", "severity": "high", "cost_ns": 30000000, "cost_share": 0.3,
   "summary": "pipeline bubble: GPUs wait 30.0 ms per step (30 % of the step)",
   "evidence": ["stage 0: bubble 30 % measured vs 33 % ideal (1f1b, p=2, m=2)"], "remedy": "raise m", "ranks": [0, 1], "stages": [0, 1]}]}`

// TestReadsVersion1: a Result written before findings were data reads
// with its sentences kept, so compare and every view say what it said.
func TestReadsVersion1(t *testing.T) {
	res, err := ReadJSON(strings.NewReader(v1Result))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Findings[0]
	if f.Kind != "pipeline_bubble" || f.CostNs != 30e6 || f.Remedy != "raise m" || len(f.Stages) != 2 {
		t.Fatalf("finding %+v", f)
	}
	if got := prose.Headline(res, f); got != "pipeline bubble: GPUs wait 30.0 ms per step (30 % of the step)" {
		t.Errorf("headline %q", got)
	}
	if ev := prose.Evidence(res, f); len(ev) != 1 || ev[0] != "stage 0: bubble 30 % measured vs 33 % ideal (1f1b, p=2, m=2)" {
		t.Errorf("evidence %q", ev)
	}
	if s := res.SlowRanks[0]; s.BlameNs != 5e6 || prose.Sentences(res, s.Evidence)[0] != "rank 1: compute 30 % slower" {
		t.Errorf("slow rank %+v", s)
	}
	var b bytes.Buffer
	if err := Text(&b, res, TextOptions{}); err != nil || !strings.Contains(b.String(), "pipeline bubble: GPUs wait 30.0 ms per step") {
		t.Errorf("text of a version-1 Result: %v\n%s", err, b.String())
	}
}

// TestVersion2CarriesFigures: the JSON of a finding holds its figures as
// numbers with units, not only sentences.
func TestVersion2CarriesFigures(t *testing.T) {
	res := fixed()
	res.Findings[0].Headline = result.Say("bubble", result.Ns("cost", 20e6), result.Frac("share", 0.166))
	var b bytes.Buffer
	if err := JSON(&b, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"schema_version": 2`, `"say": "bubble"`, `"name": "cost"`, `"value": 20000000`, `"unit": "ns"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
	back, err := ReadJSON(&b)
	if err != nil || prose.Headline(back, back.Findings[0]) != "pipeline bubble: GPUs wait 20.0 ms per step (17 % of the step)" {
		t.Fatalf("round trip: %v %+v", err, back.Findings[0])
	}
}
