package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

// TestWhatIfPane: with a replay in the Result the TUI gains a What-if tab
// listing the scenarios; without one the tabs stay as they were.
func TestWhatIfPane(t *testing.T) {
	res := fixture.Result(fixture.Small())
	res.WhatIf = &result.WhatIf{Ops: 10, Groups: 2, TraceStepNs: 100e6, NoDelayStepNs: 95e6, IdealStepNs: 80e6, S: 1.19,
		Scenarios:    []result.WhatIfScenario{{Name: "fix rank 5", StepNs: 50e6, GainNs: 50e6}},
		CriticalPath: []result.PathSegment{{Category: "compute stage 3", Ns: 70e6}}}
	m := NewLoaded(res)
	m.c.Width, m.c.Height = 100, 30
	m.resize()
	m.active = len(m.panes) - 1
	screen := ansi.Strip(m.Render())
	for _, want := range []string{"What if", "fix rank 5", "50.0 ms", "compute stage 3", "█"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	if n := len(NewLoaded(fixture.Result(fixture.Small())).panes); n != len(m.panes)-1 {
		t.Errorf("%d panes without a replay, %d with", n, len(m.panes))
	}
}
