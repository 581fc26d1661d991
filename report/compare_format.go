package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/gate"
)

// CompareFormats are the formats WriteComparison writes.
var CompareFormats = []string{"text", "markdown", "json", "junit"}

// WriteComparison writes c as "text", "markdown" or "json" and returns
// how many deltas regressed.
func WriteComparison(w io.Writer, c *Comparison, format string) (int, error) {
	var err error
	switch format {
	case "text":
		err = compareTextFull(w, c)
	case "markdown":
		err = CompareMarkdown(w, c, "### tpptrace compare")
	case "json":
		err = CompareJSON(w, c)
	case "junit":
		err = CompareJUnit(w, c)
	default:
		return 0, fmt.Errorf("compare: unknown format %q (want %s)", format, strings.Join(CompareFormats, ", "))
	}
	if err != nil {
		return 0, fmt.Errorf("compare: write %s: %w", format, err)
	}
	return c.Regressions(), nil
}

// BaseText is the base value formatted for its unit.
func (d Delta) BaseText() string { return d.format(d.Base) }

// NewText is the new value formatted for its unit.
func (d Delta) NewText() string { return d.format(d.New) }

func (d Delta) format(v float64) string {
	switch {
	case d.Kind != DeltaFigure && v == 0:
		return "–"
	case d.Unit == "named":
		return "named"
	case d.Unit == "fraction":
		return vocab.Percent(v)
	case d.Unit == "bytes":
		return vocab.Bytes(int64(v))
	case d.Unit == "tokens/s":
		return TokensPerS(v)
	}
	return vocab.Duration(int64(v))
}

// ChangeText is the relative change ("+10.0 %"), for a fraction the
// change in percentage points ("+2.9 pp"), or for a rank or finding
// present in one run only "new" or "gone", and "from 0" for a figure
// that was 0.
func (d Delta) ChangeText() string {
	switch {
	case d.Unit == gate.UnitFraction:
		return fmt.Sprintf("%+.1f pp", d.ChangePP())
	case d.Base == 0 && d.New == 0:
		return "+0.0 %"
	case d.Kind != DeltaFigure && d.Base == 0:
		return "new"
	case d.Kind != DeltaFigure && d.New == 0:
		return "gone"
	case d.Base == 0:
		return "from 0"
	}
	return fmt.Sprintf("%+.1f %%", 100*d.Change())
}

// SpreadText is "±1.2 ms", the steps' spread of the figure, "" when unknown.
func (d Delta) SpreadText() string {
	if d.Spread <= 0 {
		return ""
	}
	return "±" + d.format(d.Spread)
}

// Mark is "REGRESSION", "improved" or "".
func (d Delta) Mark() string {
	switch {
	case d.Regressed:
		return "REGRESSION"
	case d.Improved:
		return "improved"
	}
	return ""
}

// CompareText writes the deltas as a table and returns how many regressed.
func CompareText(w io.Writer, ds []Delta) int {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tbase\tnew\tchange\tspread\t")
	for _, d := range ds {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Name, d.BaseText(), d.NewText(), d.ChangeText(), d.SpreadText(), d.Mark())
	}
	tw.Flush()
	return Regressions(ds)
}

// compareTextFull writes the runs, the warnings, the table and the verdict.
func compareTextFull(w io.Writer, c *Comparison) error {
	var b strings.Builder
	fmt.Fprintf(&b, "base  %s\nnew   %s\n", vocab.Safe(c.Base.String()), vocab.Safe(c.New.String()))
	for _, s := range c.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", vocab.Safe(s))
	}
	for _, s := range c.Changes.KernelLines() {
		fmt.Fprintf(&b, "%s\n", s)
	}
	b.WriteString("\n")
	CompareText(&b, c.Deltas)
	fmt.Fprintf(&b, "\n%s\n", c.Verdict())
	_, err := io.WriteString(w, b.String())
	return err
}

// CompareMarkdown writes c as Markdown a CI system can post as a comment:
// the heading line, the verdict, the two runs, the warnings and one
// table, regressions first and in bold.
func CompareMarkdown(w io.Writer, c *Comparison, heading string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n**%s**\n\n", heading, c.Verdict())
	fmt.Fprintf(&b, "- base: %s\n- new: %s\n", mdCell(c.Base.String()), mdCell(c.New.String()))
	for _, s := range c.Warnings {
		fmt.Fprintf(&b, "- **warning:** %s\n", mdCell(s))
	}
	for _, s := range c.Changes.KernelLines() {
		fmt.Fprintf(&b, "- %s\n", mdCell(s))
	}
	b.WriteString("\n| figure | base | new | change | spread | |\n|---|--:|--:|--:|--:|---|\n")
	for _, d := range c.Ordered() {
		mark, name := d.Mark(), mdCell(d.Name)
		if d.Regressed {
			mark, name = "**REGRESSION**", "**"+name+"**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", name, d.BaseText(), d.NewText(), d.ChangeText(), d.SpreadText(), mark)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCell escapes text for a Markdown table cell or list item.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", "*", `\*`, "_", `\_`).Replace(s)
}

// jsonDelta is a Delta with its change, as CompareJSON writes it;
// fractions also in percentage points.
type jsonDelta struct {
	Delta
	Change   float64  `json:"change"`
	ChangePP *float64 `json:"change_pp,omitempty"`
}

// CompareJSON writes c as indented JSON: threshold, regressions, the two
// runs, warnings and the deltas in gate order, each with its id, display
// name and change ((new−base)/base; ±1 from a base of 0; for fractions
// change_pp too).
func CompareJSON(w io.Writer, c *Comparison) error {
	doc := struct {
		Threshold   float64     `json:"threshold"`
		Regressions int         `json:"regressions"`
		Base        Run         `json:"base"`
		New         Run         `json:"new"`
		Warnings    []string    `json:"warnings,omitempty"`
		Changes     Changes     `json:"changes"`
		Deltas      []jsonDelta `json:"deltas"`
	}{Threshold: c.Threshold, Regressions: c.Regressions(), Base: c.Base, New: c.New, Warnings: c.Warnings, Changes: c.Changes}
	for _, d := range c.Deltas {
		jd := jsonDelta{Delta: d, Change: d.Change()}
		if d.Unit == gate.UnitFraction {
			pp := d.ChangePP()
			jd.ChangePP = &pp
		}
		doc.Deltas = append(doc.Deltas, jd)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
