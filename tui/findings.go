package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
)

// findings lists the diagnosis with the selected finding's evidence and remedy.
type findings struct {
	c    *Common
	w, h int
	row  int
}

func (f *findings) Title() string    { return "Findings" }
func (f *findings) SetSize(w, h int) { f.w, f.h = w, h }
func (f *findings) HelpLine() string { return "j/k select · enter show on the timeline" }

func (f *findings) Update(msg tea.Msg) (Component, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, f.c.Keys.Down):
			f.row = min(f.row+1, len(f.c.Res.Findings)-1)
		case key.Matches(k, f.c.Keys.Up):
			f.row = max(f.row-1, 0)
		case key.Matches(k, f.c.Keys.Jump) && len(f.c.Res.Findings) > 0:
			x := f.c.Res.Findings[f.row]
			return f, JumpCmd(findingRanks(f.c.Res, x), findingCategory(x.Kind), prose.Headline(f.c.Res, x))
		}
	}
	return f, nil
}

func (f *findings) View() string {
	fs := f.c.Res.Findings
	if len(fs) == 0 {
		return "no findings: nothing costs a measurable share of the step"
	}
	var lines []string
	for i, x := range fs {
		line := fmt.Sprintf("%-6s %-16s %10s %7s  %s", x.Severity, x.Kind, vocab.Duration(x.CostNs), vocab.Percent(x.CostShare), vocab.Safe(prose.Headline(f.c.Res, x)))
		if i == f.row {
			line = f.c.Styles.Selected.Render(line)
		}
		lines = append(lines, line)
	}
	return clip(append(lines, f.detail()...), f.w, f.h)
}

func (f *findings) detail() []string {
	x := f.c.Res.Findings[max(f.row, 0)]
	out := []string{"", f.c.Styles.Header.Render("Evidence")}
	for _, e := range prose.Evidence(f.c.Res, x) {
		out = append(out, wrap("  • ", vocab.Safe(e), f.w)...)
	}
	if x.Remedy != "" {
		out = append(out, "", f.c.Styles.Header.Render("Remedy"))
		out = append(out, wrap("  ", vocab.Safe(x.Remedy), f.w)...)
	}
	if len(x.Ranks) > 0 {
		out = append(out, "", "ranks: "+joinInts(x.Ranks))
	}
	return out
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// findingCategory is the timeline category that shows a finding's cost
// (the registry's), "" when none does.
func findingCategory(kind string) string {
	k, _ := vocab.LookupKind(kind)
	return k.Category
}

// findingRanks are the finding's ranks, else its stages' ranks (none: all).
func findingRanks(r *result.Result, f result.Finding) []int {
	if len(f.Ranks) > 0 {
		return f.Ranks
	}
	var out []int
	for _, s := range r.Stages {
		if slices.Contains(f.Stages, s.Stage) {
			out = append(out, s.Ranks...)
		}
	}
	return out
}
