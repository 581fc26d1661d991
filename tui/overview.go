package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
)

// overview is the diagnosis at a glance: the job line, the stage table (a
// rank table without a pipeline) and the top findings.
type overview struct {
	c    *Common
	w, h int
}

func (o *overview) Title() string                       { return "Overview" }
func (o *overview) SetSize(w, h int)                    { o.w, o.h = w, h }
func (o *overview) HelpLine() string                    { return "" }
func (o *overview) Update(tea.Msg) (Component, tea.Cmd) { return o, nil }

func (o *overview) View() string {
	r := o.c.Res
	lines := []string{o.c.Styles.Title.Render(JobLine(r)), ""}
	if noPipeline(r) {
		lines = append(lines, rankOverview(o.c, r)...)
	} else {
		lines = append(lines, stageTable(o.c, r)...)
	}
	lines = append(lines, "", o.c.Styles.Header.Render("Top findings"))
	for i, f := range r.Findings {
		if i == 5 {
			break
		}
		lines = append(lines, fmt.Sprintf(" %d. [%s] %s/step (%s)  %s", i+1, f.Severity,
			vocab.Duration(f.CostNs), vocab.Percent(f.CostShare), vocab.Safe(prose.Headline(r, f))))
	}
	return clip(lines, o.w, o.h)
}

// JobLine is the one-line summary of a result.
func JobLine(r *result.Result) string {
	l := r.Layout
	line := fmt.Sprintf("world %d%s · %s · %s m=%d · step %s · bubble ideal %s",
		r.WorldSize, missingNote(r), l, r.Schedule, r.Microbatches, vocab.Duration(r.StepNs), idealBubble(r))
	if noPipeline(r) {
		line = noPipelineJobLine(r)
	}
	if r.TokensPerS > 0 {
		line += " · " + vocab.Count(int64(r.TokensPerS+0.5)) + " tokens/s"
	}
	if r.MFU > 0 {
		line += " · MFU " + vocab.Percent(r.MFU)
	}
	return line
}

func idealBubble(r *result.Result) string {
	if len(r.Stages) == 0 {
		return "-"
	}
	return vocab.Percent(r.Stages[0].IdealBubbleFraction)
}

// stageTable lists the stages: compute, the bubble (time, share, ideal)
// and the exposed communication outside it; PP xfer is the bubble's PP
// transfer, the rest of exposed PP is the bubble's wait for the neighbour.
func stageTable(c *Common, r *result.Result) []string {
	const format = "%-6s %9s %9s %7s %7s %8s %8s %8s"
	head := fmt.Sprintf(format, "stage", "compute", "bubble", "share", "ideal", "exp TP", "PP xfer", "exp DP")
	out := []string{c.Styles.Header.Render(head)}
	for _, s := range r.Stages {
		line := fmt.Sprintf(format, fmt.Sprint(s.Stage), vocab.Duration(s.ComputeNs), vocab.Duration(s.BubbleNs),
			vocab.Percent(s.BubbleFraction), vocab.Percent(s.IdealBubbleFraction), vocab.Duration(s.ExposedNs["TP"]),
			vocab.Duration(s.BubblePPTransferNs), vocab.Duration(s.ExposedNs["DP"]))
		if s.Stage == r.BottleneckStage && len(r.Stages) > 1 {
			line = c.Styles.Bad.Render(line + "  ◀ bottleneck")
		}
		out = append(out, line)
	}
	return out
}

// clip keeps lines within the pane, cutting long lines and extra rows.
func clip(lines []string, w, h int) string {
	if h > 0 && len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = truncate(l, w)
	}
	return strings.Join(lines, "\n")
}

// missingNote is " (rank 5 missing of 16)" when the inputs declare ranks
// they hold no trace of, else "".
func missingNote(r *result.Result) string {
	if len(r.MissingRanks) == 0 {
		return ""
	}
	s := fmt.Sprintf(" (%s missing", result.RankRanges(r.MissingRanks))
	if r.DeclaredWorldSize > 0 {
		s += fmt.Sprintf(" of %d", r.DeclaredWorldSize)
	}
	return s + ")"
}
