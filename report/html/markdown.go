package html

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// md escapes text for a Markdown table cell or line.
func md(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", "*", `\*`, "_", `\_`).Replace(s)
}

// Markdown writes the report as Markdown; figures are referenced as
// figdir/<name>.png with a link to the SVG.
func Markdown(w io.Writer, r *result.Result, figs []Rendered, figdir string) error {
	return MarkdownWith(w, r, figs, figdir, Options{})
}

// MarkdownWith writes the Markdown report with the parts o asks for.
func MarkdownWith(w io.Writer, r *result.Result, figs []Rendered, figdir string, o Options) error {
	var b strings.Builder
	b.WriteString("# Why is this training step slow?\n\n| | |\n|---|---|\n")
	for _, m := range metadata(r) {
		fmt.Fprintf(&b, "| %s | %s |\n", m.Name, md(m.Value))
	}
	if err := mdBaseline(&b, o.Baseline); err != nil {
		return err
	}
	mdFindings(&b, findings(r))
	mdWhatif(&b, newWhatifView(r))
	for _, f := range figs {
		png, svg := path.Join(figdir, f.Name+".png"), path.Join(figdir, f.Name+".svg")
		fmt.Fprintf(&b, "\n## %s\n\n![%s](%s)\n\n%s ([SVG](%s))\n", f.Title, f.Title, png, md(f.Caption), svg)
	}
	mdStages(&b, stageRows(r))
	mdRanks(&b, rankTable(r))
	_, err := io.WriteString(w, b.String())
	return err
}

func mdFindings(b *strings.Builder, fs []finding) {
	b.WriteString("\n## Findings\n\n")
	if len(fs) == 0 {
		b.WriteString("No finding: nothing costs a noticeable share of the step.\n")
	}
	for _, f := range fs {
		fmt.Fprintf(b, "### %s · %s\n\nCosts %s per step (%s).", f.Severity, md(f.Summary), f.Cost, f.Share)
		if f.Where != "" {
			fmt.Fprintf(b, " Where: %s.", f.Where)
		}
		fmt.Fprintf(b, " `%s`\n\n", f.Kind)
		for _, e := range f.Evidence {
			fmt.Fprintf(b, "- %s\n", md(e))
		}
		if f.Remedy != "" {
			fmt.Fprintf(b, "\n**Remedy:** %s\n", md(f.Remedy))
		}
		b.WriteString("\n")
	}
}

func mdStages(b *strings.Builder, rows []stageRow) {
	if len(rows) == 0 {
		return
	}
	b.WriteString("\n## Stages\n\n| stage | ranks | compute | exposed TP | PP transfer | exposed DP | bubble | of it PP wait | bubble share | ideal |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, s := range rows {
		stage := s.Stage
		if s.Bottleneck {
			stage += " (bottleneck)"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", stage, s.Ranks, s.Compute, s.TP, s.PP, s.DP, s.Bubble, s.Wait, s.Fraction, s.Ideal)
	}
}

// mdRanks writes the rank table of a job without a pipeline.
func mdRanks(b *strings.Builder, v *rankView) {
	if v == nil {
		return
	}
	fmt.Fprintf(b, "\n## Ranks\n\n| %s | compute | idle GPU | idle share |", v.Unit)
	for _, ax := range v.Axes {
		fmt.Fprintf(b, " exposed %s |", ax)
	}
	b.WriteString("\n|---|--:|--:|--:|" + strings.Repeat("--:|", len(v.Axes)) + "\n")
	for _, r := range v.Rows {
		fmt.Fprintf(b, "| %s | %s | %s | %s |", r.Label, r.Compute, r.Idle, r.Share)
		for _, e := range r.Exposed {
			fmt.Fprintf(b, " %s |", e)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "\n%s.", md(v.Note))
	if v.Passes != "" {
		b.WriteString(" " + v.Passes)
	}
	if v.Omitted > 0 {
		fmt.Fprintf(b, " %d more rows, less idle and exposed, are in the JSON Result.", v.Omitted)
	}
	b.WriteString("\n")
}
