package report

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixed is a hand-written two-stage Result.
func fixed() *result.Result {
	return &result.Result{
		SchemaVersion: result.SchemaVersion, Tool: "tpptrace test", WorldSize: 4,
		Layout:   result.Layout{TP: 2, PP: 2, DP: 1, Order: "tp-cp-ep-dp-pp", By: "descriptions"},
		Schedule: "1f1b", Microbatches: 8, StepNs: 120_500_000, BottleneckStage: 1, StageImbalance: 1.13,
		Iterations: []result.Iteration{{Index: 3, DurationNs: 120e6}, {Index: 4, DurationNs: 121e6}},
		Stages: []result.StageStats{
			{Stage: 0, Ranks: []int{0, 1}, ComputeNs: 80e6, ForwardNs: 26e6, BackwardNs: 54e6, BubbleNs: 25.2e6, BubblePPWaitNs: 23e6, BubblePPTransferNs: 1e6, BubbleFraction: 0.21, IdealBubbleFraction: 1.0 / 9, ExposedNs: map[string]int64{"TP": 4e6, "PP": 1e6}},
			{Stage: 1, Ranks: []int{2, 3}, ComputeNs: 101e6, ForwardNs: 33e6, BackwardNs: 68e6, BubbleNs: 14.4e6, BubblePPWaitNs: 13e6, BubblePPTransferNs: 0.5e6, BubbleFraction: 0.12, IdealBubbleFraction: 1.0 / 9, ExposedNs: map[string]int64{"TP": 5e6}},
		},
		Findings: []result.Finding{
			{Kind: vocab.KindBubble, Severity: "medium", CostNs: 20e6, CostShare: 0.166, Headline: result.Text("pipeline bubble: GPUs wait 20.0 ms per step"),
				Evidence: []result.Statement{result.Text("stage 0: bubble 21 % measured vs 11 % ideal")}, Remedy: "raise the number of microbatches m"},
			{Kind: vocab.KindImbalance, Severity: "low", CostNs: 10e6, CostShare: 0.083, Headline: result.Text("stage imbalance: stage 1 computes 101 ms per step")},
		},
		Skipped:  []result.Skipped{{Source: "rank3.json", Offset: 1024, Unit: "byte", Reason: "truncated event", Count: 2}},
		Warnings: []string{"rank 3 offset left at 0"},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestTextGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, fixed(), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "\x1b[") {
		t.Fatal("colour escape without Color")
	}
	golden(t, "text.golden", b.Bytes())
}

// TestStageTableShowsTheBubble: the stage table gives the bubble in ms
// beside its share, and the PP transfer instead of the exposed PP time
// that is mostly the bubble.
func TestStageTableShowsTheBubble(t *testing.T) {
	var b bytes.Buffer
	stageTable(&b, fixed())
	lines := strings.Split(b.String(), "\n")
	if !strings.Contains(lines[0], "bubble ms") || !strings.Contains(lines[0], "PP xfer ms") || strings.Contains(lines[0], "exp PP") {
		t.Fatalf("header %q: want bubble ms and PP xfer ms, no exp PP", lines[0])
	}
	for _, want := range []string{"25.20  21.0 %", "1.00"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("stage 0 line %q lacks %q", lines[1], want)
		}
	}
	if !strings.Contains(b.String(), "90.9 % of it send/recv waiting") {
		t.Errorf("no share of the wait in the note:\n%s", b.String())
	}
}

func TestTextColor(t *testing.T) {
	var b bytes.Buffer
	Text(&b, fixed(), TextOptions{Color: true})
	if !strings.Contains(b.String(), "\x1b[33mmedium\x1b[0m") {
		t.Fatalf("no colour for severity:\n%s", b.String())
	}
}

func TestJSONRoundTripDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	if err := JSON(&a, fixed()); err != nil {
		t.Fatal(err)
	}
	JSON(&b, fixed())
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("JSON output not deterministic")
	}
	res, err := ReadJSON(bytes.NewReader(a.Bytes()))
	if err != nil || res.StepNs != 120_500_000 || res.Stages[1].ExposedNs["TP"] != 5e6 || res.Findings[0].Kind != vocab.KindBubble {
		t.Fatalf("round trip: %v %+v", err, res)
	}
	if _, err := ReadJSON(strings.NewReader(`{"schema_version": 99}`)); err == nil {
		t.Fatal("newer schema accepted")
	}
}

func TestSkippedGroupedByReason(t *testing.T) {
	res := fixed()
	res.Skipped = nil
	for i := range 16 {
		res.Skipped = append(res.Skipped, result.Skipped{Source: fmt.Sprintf("rank-%d.json", i), Offset: -1, Reason: `category "Trace" is not used`, Count: 1})
	}
	res.Skipped = append(res.Skipped,
		result.Skipped{Source: "job.json", Offset: -1, Reason: "no input format recognises this file", Count: 1},
		result.Skipped{Source: "rank-3.json", Offset: 10, Reason: "truncated event ", Count: 7},
		result.Skipped{Source: "rank-4.json", Offset: 10, Reason: "truncated event", Count: 2})
	var b bytes.Buffer
	if err := Text(&b, res, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`· category "Trace" is not used: 16 files` + "\n", "· truncated event: 9 items in 2 files\n",
		"· no input format recognises this file: 1 item in job.json\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "Trace"); n != 1 {
		t.Errorf("the Trace reason appears %d times, want once:\n%s", n, out)
	}
	if strings.Index(out, "Trace") > strings.Index(out, "truncated") {
		t.Errorf("reasons not ordered by number of files:\n%s", out)
	}
}

func TestTextKeepsSevereFindingsBeyondTop(t *testing.T) {
	res := fixed()
	res.Findings = append(res.Findings,
		result.Finding{Kind: vocab.KindExposedPP, Severity: "info", CostNs: 1e6, CostShare: 0.008, Headline: result.Text("exposed PP communication")},
		result.Finding{Kind: vocab.KindGPUThrottle, Severity: "medium", Headline: result.Text("GPU throttled: rank 3: HW slowdown: thermal"), Evidence: []result.Statement{result.Text("GPU node000/3")}})
	var b bytes.Buffer
	if err := Text(&b, res, TextOptions{Findings: 2}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, " 4. [medium] GPU throttled: rank 3: HW slowdown: thermal\n") {
		t.Errorf("medium finding beyond the top 2 not listed on one line, without a zero cost:\n%s", out)
	}
	if strings.Contains(out, "exposed PP") || strings.Contains(out, "GPU node000/3") || !strings.Contains(out, "(1 more in --json)") {
		t.Errorf("info finding beyond the top shown, or evidence of a one-line finding:\n%s", out)
	}
}
