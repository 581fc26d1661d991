package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	rpt "github.com/tpptrace/tpptrace/report"
)

// baseline is the Result the run is compared with (--baseline).
type baseline struct {
	res  *result.Result
	name string
}

// regressionThreshold is compare's default gate.
const regressionThreshold = 0.05

// regressions is the run against the baseline, as 'tpptrace compare'
// gates it: the verdict, the warnings and every figure, regressions first.
type regressions struct {
	c    *Common
	cmp  *rpt.Comparison
	w, h int
	top  int
}

func newRegressions(c *Common, b *baseline) *regressions {
	return &regressions{c: c, cmp: rpt.NewComparison(b.name, b.res, "this run", c.Res, regressionThreshold)}
}

func (r *regressions) Title() string    { return "Regressions" }
func (r *regressions) SetSize(w, h int) { r.w, r.h = w, h }
func (r *regressions) HelpLine() string { return "j/k scroll" }

func (r *regressions) Update(msg tea.Msg) (Component, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, r.c.Keys.Down):
			r.top = min(r.top+1, max(len(r.cmp.Deltas)-1, 0))
		case key.Matches(k, r.c.Keys.Up):
			r.top = max(r.top-1, 0)
		}
	}
	return r, nil
}

func (r *regressions) View() string {
	c := r.cmp
	verdict := r.c.Styles.Title.Render(c.Verdict())
	if c.Regressions() > 0 {
		verdict = r.c.Styles.Bad.Render(c.Verdict())
	}
	lines := []string{verdict, "base  " + c.Base.String(), "new   " + c.New.String()}
	if err := c.Comparable(); err != nil {
		lines = append(lines, r.c.Styles.Bad.Render("not comparable: "+err.Error()))
	}
	for _, w := range c.Warnings {
		lines = append(lines, "warning: "+w)
	}
	lines = append(lines, "", r.c.Styles.Header.Render(fmt.Sprintf("%-36s %12s %12s %9s", "figure", "base", "new", "change")))
	for _, d := range c.Ordered()[min(r.top, len(c.Deltas)):] {
		line := fmt.Sprintf("%-36s %12s %12s %9s  %s", d.Name, d.BaseText(), d.NewText(), d.ChangeText(), d.Mark())
		if d.Regressed {
			line = r.c.Styles.Bad.Render(line)
		}
		lines = append(lines, line)
	}
	return clip(lines, r.w, r.h)
}
