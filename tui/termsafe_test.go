package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
	"github.com/tpptrace/tpptrace/report/prose"
)

// TestInputStringsAreEscapedOnEveryPane: a host name and a finding whose
// text carries escapes (window title, clear screen, a forged line) show
// escaped on every pane.
func TestInputStringsAreEscapedOnEveryPane(t *testing.T) {
	res := fixture.Result(fixture.Small())
	evil := "\x1b]0;pwned\x07\x1b[2J\nforged"
	for i := range res.Ranks {
		res.Ranks[i].Host = evil
	}
	res.Findings[0].Headline = result.Text(prose.Headline(res, res.Findings[0]) + evil)
	res.Findings[0].Evidence = append(res.Findings[0].Evidence, result.Text(evil))
	m := NewLoaded(res)
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for pane := 0; pane < 4; pane++ {
		screen := m.Render()
		for _, bad := range []string{"\x1b]", "\x1b[2J", "\x07", "\nforged"} {
			if strings.Contains(screen, bad) {
				t.Errorf("pane %d: %q reached the screen raw", pane, bad)
			}
		}
		m.Update(press("tab"))
	}
}
