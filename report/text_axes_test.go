package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// TestStageTableShowsContextAndExpertAxes: a job with EP gets an exposed-EP
// column, and one without CP gets no CP column.
func TestStageTableShowsContextAndExpertAxes(t *testing.T) {
	res := &result.Result{Layout: result.Layout{TP: 2, PP: 2, DP: 1, EP: 4}, Schedule: "1f1b", StepNs: 1e8,
		Stages: []result.StageStats{
			{Stage: 0, ExposedNs: map[string]int64{"EP": 1_920_000}},
			{Stage: 1, ExposedNs: map[string]int64{"EP": 1_910_000}},
		}}
	var b bytes.Buffer
	stageTable(&b, res)
	out := b.String()
	if !strings.Contains(out, "exp EP ms") || !strings.Contains(out, "1.92") || strings.Contains(out, "exp CP") {
		t.Fatalf("stage table:\n%s", out)
	}
	if got := header(res); !strings.Contains(got, "TP2 PP2 DP1 CP1 EP4") {
		t.Fatalf("header %q does not name EP", got)
	}
}

func TestStageTableShowsPeakMemoryWhenKnown(t *testing.T) {
	res := &result.Result{WorldSize: 1, Layout: result.Layout{TP: 1, PP: 2, DP: 1}, Schedule: "gpipe", StepNs: 1e8,
		Stages: []result.StageStats{{Stage: 0, PeakMemBytes: 40 << 30}, {Stage: 1, PeakMemBytes: 20 << 30}}}
	var b bytes.Buffer
	stageTable(&b, res)
	if out := b.String(); !strings.Contains(out, "peak mem") || !strings.Contains(out, "40.0 GiB") {
		t.Fatalf("stage table:\n%s", out)
	}
	if h := header(res); !strings.HasPrefix(h, "1 rank ·") {
		t.Fatalf("header %q: one rank is singular", h)
	}
	res.Stages[0].PeakMemBytes, res.Stages[1].PeakMemBytes = 0, 0
	b.Reset()
	stageTable(&b, res)
	if strings.Contains(b.String(), "peak mem") {
		t.Fatal("no memory column without memory figures")
	}
}
