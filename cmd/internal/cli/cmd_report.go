package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	rpt "github.com/tpptrace/tpptrace/report"

	"github.com/tpptrace/tpptrace/report/html"
)

var reportCmd = &Command{
	Name:    "report",
	Summary: "write a shareable HTML + Markdown report with figures",
	Usage:   "tpptrace report [-o dir] <traces | dataset | result.json>  |  tpptrace report --sample <scenario> [-o dir]",
	Long: `Writes <dir>/report.html (self-contained: figures embedded, no external
reference; it opens offline and can be attached to a nightly job), <dir>/report.md
and the figures beside it as <dir>/figures/<name>.png and .svg: the timeline of
one step, per-stage breakdown, measured vs ideal bubble, a rank × step heatmap,
the arrival skew around a slow rank and α-β fits per communicator.

The input is trace files or directories or a dataset written by 'tpptrace ingest'
(read and analysed first), or a Result written by 'tpptrace analyze --json'. --sample renders a bundled simulated job
(see 'tpptrace samples list').

--baseline adds a section "Compared with the baseline" to both forms: the
deltas of 'tpptrace compare' at its default 5 % threshold, regressions first.
The baseline is a Result file, or traces / a dataset analysed with the same
layout flags. The report never fails on a regression: 'compare' is the gate.

Examples:
  tpptrace report -o out/ run1.tpp/
  tpptrace analyze --json run1.tpp/ > r.json && tpptrace report -o out/ r.json
  tpptrace report --sample default -o docs/figures
  tpptrace report --baseline nightly/base.json -o out/ new.json`,
}

func init() { reportCmd.Run = runReport }

func runReport(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, reportCmd)
	out := fs.String("o", "tpptrace-report", "output `dir`ectory")
	baseline := fs.String("baseline", "", "compare with the Result (or traces) in `base.json` and add the comparison")
	var in inputFlags
	in.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	r, _, err := in.load(ctx, env, fs.Args())
	if err != nil {
		return err
	}
	var opts html.Options
	if *baseline != "" {
		if opts.Baseline, err = compareWithBaseline(ctx, env, in, *baseline, fs.Args(), r); err != nil {
			return err
		}
	}
	files, err := html.WriteWith(*out, r, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %s, %s and %d figure files\n", files.HTML, files.Markdown, len(files.Figures))
	return nil
}

// compareWithBaseline loads the baseline (never a --sample) and compares r,
// read from inputs, with it at the default threshold.
func compareWithBaseline(ctx context.Context, env *Env, in inputFlags, path string, inputs []string, r *result.Result) (*rpt.Comparison, error) {
	name := strings.Join(inputs, " ")
	if in.sample != "" {
		name = "sample " + in.sample
	}
	in.sample = ""
	base, _, err := in.load(ctx, env, []string{path})
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	c := rpt.NewComparison(path, base, name, r, rpt.DefaultThreshold)
	fmt.Fprintf(env.Stderr, "compared with %s: %s\n", path, c.Verdict())
	return c, nil
}
