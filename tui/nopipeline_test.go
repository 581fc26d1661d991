package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// dlrmLike is a hand-written Result of a job without a pipeline: 8 ranks,
// DP all-reduce and embedding all-to-all (A2A), rank 7 idle longest.
func dlrmLike() *result.Result {
	res := &result.Result{SchemaVersion: result.SchemaVersion, WorldSize: 8, Schedule: "none", StepNs: 20e6,
		Layout: result.Layout{TP: 1, PP: 1, DP: 8, Order: "tp-cp-ep-dp-pp", By: "traffic"},
		Stages: []result.StageStats{{Stage: 0, Ranks: []int{0, 1, 2, 3, 4, 5, 6, 7}, BubbleNs: 9e6, BubbleFraction: 0.45}},
		Findings: []result.Finding{{Kind: vocab.KindGPUIdle, Severity: "high", CostNs: 9e6, CostShare: 0.45,
			Headline: result.Text("idle GPU: no kernel runs 9.0 ms per step")}}}
	for r := range 8 {
		idle := int64(9e6)
		if r == 7 {
			idle = 15e6
		}
		res.Ranks = append(res.Ranks, result.RankStats{Rank: r, DP: r, StepNs: 20e6, ComputeNs: 1e6, IdleNs: idle, BubbleNs: idle,
			CommNs: map[string]int64{"DP": 1e6, "A2A": 5e6}, ExposedNs: map[string]int64{"DP": 1e6, "A2A": 4e6}})
	}
	return res
}

var pipelineWords = regexp.MustCompile(`(?i)bubble|stage|microbatch|schedule|ideal|PP xfer|pp/dp`)

// TestNoPipelineOverview: without a pipeline the overview, the ranks tab and
// the timeline speak of ranks and idle time, never of stages or a bubble;
// the overview lists every rank with its exposed DP and A2A time.
func TestNoPipelineOverview(t *testing.T) {
	m := NewLoaded(dlrmLike())
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	overview := ansi.Strip(m.Render())
	for _, want := range []string{"no pipeline", "exp DP", "exp A2A", "\n7        1.00 ms   15.0 ms  75.0 %  1.00 ms  4.00 ms\n"} {
		if !strings.Contains(overview, want) {
			t.Errorf("overview lacks %q:\n%s", want, overview)
		}
	}
	for tab := range 3 {
		screen := ansi.Strip(m.Render())
		if w := pipelineWords.FindAllString(screen, -1); len(w) > 0 {
			t.Errorf("pane %d holds %q:\n%s", tab, w, screen)
		}
		m.Update(press("tab"))
	}
}
