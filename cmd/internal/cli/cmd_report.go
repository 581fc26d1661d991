package cli

import (
	"context"
	"fmt"

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

Examples:
  tpptrace report -o out/ run1.tpp/
  tpptrace analyze --json run1.tpp/ > r.json && tpptrace report -o out/ r.json
  tpptrace report --sample default -o docs/figures`,
}

func init() { reportCmd.Run = runReport }

func runReport(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, reportCmd)
	out := fs.String("o", "tpptrace-report", "output `dir`ectory")
	var in inputFlags
	in.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	r, _, err := in.load(ctx, env, fs.Args())
	if err != nil {
		return err
	}
	files, err := html.Write(*out, r)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %s, %s and %d figure files\n", files.HTML, files.Markdown, len(files.Figures))
	return nil
}
