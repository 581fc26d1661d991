package html

import (
	"strings"

	"github.com/tpptrace/tpptrace/report"
)

// Options are the optional parts of the report.
type Options struct {
	// Baseline, when set, adds the section "Compared with the baseline":
	// the comparison's deltas, regressions first.
	Baseline *report.Comparison
}

// baselineTitle heads the comparison section in both forms.
const baselineTitle = "Compared with the baseline"

// compareView is the comparison as the page template reads it.
type compareView struct {
	Verdict     string
	Regressions int
	Base, New   string
	Warnings    []string
	Changes     []string // kernels added, removed, grown
	Rows        []deltaRow
}

// deltaRow is one delta with its values formatted; Class is "regressed",
// "improved" or "".
type deltaRow struct {
	Name, Base, New, Change, Spread, Mark, Class string
}

func newCompareView(c *report.Comparison) *compareView {
	if c == nil {
		return nil
	}
	v := &compareView{Verdict: c.Verdict(), Regressions: c.Regressions(), Base: c.Base.String(), New: c.New.String(), Warnings: c.Warnings,
		Changes: c.Changes.KernelLines()}
	for _, d := range c.Ordered() {
		v.Rows = append(v.Rows, deltaRow{Name: d.Name, Base: d.BaseText(), New: d.NewText(), Change: d.ChangeText(),
			Spread: d.SpreadText(), Mark: d.Mark(), Class: rowClass(d)})
	}
	return v
}

func rowClass(d report.Delta) string {
	switch {
	case d.Regressed:
		return "regressed"
	case d.Improved:
		return "improved"
	}
	return ""
}

// mdBaseline writes the comparison section of the Markdown report.
func mdBaseline(b *strings.Builder, c *report.Comparison) error {
	if c == nil {
		return nil
	}
	b.WriteString("\n")
	return report.CompareMarkdown(b, c, "## "+baselineTitle)
}
