package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// whatif shows the what-if replay: its self-check, the step without
// delays and at ideal, M_W and M_S, each scenario's predicted step as a bar
// against the recorded step, and the critical path. Present only when the
// Result carries a replay.
type whatif struct {
	c    *Common
	w, h int
}

func (v *whatif) Title() string                           { return "What if" }
func (v *whatif) SetSize(w, h int)                        { v.w, v.h = w, h }
func (v *whatif) HelpLine() string                        { return "scenarios replayed on the step graph" }
func (v *whatif) Update(msg tea.Msg) (Component, tea.Cmd) { return v, nil }

func (v *whatif) View() string {
	wi := v.c.Res.WhatIf
	lines := wrap("", fmt.Sprintf("replay of %s ops, %s sync groups; self-check within %s (%.2g of the step)",
		vocab.Count(int64(wi.Ops)), vocab.Count(int64(wi.Groups)), vocab.Duration(int64(wi.SelfCheckErrNs)), wi.SelfCheckRel), v.w)
	lines = append(lines, wrap("", fmt.Sprintf("step %s · without launch delays %s · ideal %s · S %.3f",
		vocab.Duration(wi.TraceStepNs), vocab.Duration(wi.NoDelayStepNs), vocab.Duration(wi.IdealStepNs), wi.S), v.w)...)
	lines = append(lines, wrap("", fmt.Sprintf("fix slow workers %v: %s (M_W %.3f) · fix last stage: %s (M_S %.3f)",
		wi.SlowWorkers, vocab.Duration(wi.FixSlowWorkers.StepNs), wi.FixSlowWorkers.M,
		vocab.Duration(wi.FixLastStage.StepNs), wi.FixLastStage.M), v.w)...)
	if wi.Withheld != "" {
		lines = append(lines, "", wi.Withheld)
	}
	lines = append(lines, "", v.c.Styles.Header.Render("Scenarios (bar: predicted step / recorded)"))
	for _, s := range wi.Scenarios {
		lines = append(lines, v.scenario(s, wi.TraceStepNs))
	}
	lines = append(lines, "", v.c.Styles.Header.Render("Critical path per step"))
	for _, c := range wi.CriticalPath {
		lines = append(lines, fmt.Sprintf("  %-24s %10s", c.Category, vocab.Duration(c.Ns)))
	}
	return clip(lines, v.w, v.h)
}

func (v *whatif) scenario(s result.WhatIfScenario, step int64) string {
	head := fmt.Sprintf("%-22s %10s %9s ", s.Name, vocab.Duration(s.StepNs), vocab.Percent(-float64(s.GainNs)/float64(max(step, 1))))
	width := max(v.w-len(head)-1, 0)
	n := int(min(1, max(0, float64(s.StepNs)/float64(max(step, 1)))) * float64(width))
	return head + strings.Repeat("█", n)
}
