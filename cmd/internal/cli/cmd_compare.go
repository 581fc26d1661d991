package cli

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	rpt "github.com/tpptrace/tpptrace/report"
)

var compareCmd = &Command{
	Name:    "compare",
	Summary: "compare two runs and fail on a regression (the nightly CI gate)",
	Usage:   "tpptrace compare [flags] BASE NEW",
	Long: `Compares two runs on the figures a performance gate should keep (not just
the step time): step time, each stage's bubble fraction, exposed TP/PP/DP
communication and, of it, the wait for late or slow members (TP, DP), the
slowest stage's compute, the ranks named slow or late in either run and the
findings only one run has. BASE and NEW are Result files written by
'tpptrace analyze --json', or trace directories / datasets, which are analysed
first (the layout flags apply to both). Exits 3 when a figure grows by more
than --threshold (times must also grow by more than 0.5 % of the base step,
fractions by half a percentage point),
a rank is newly named slow or late, or a finding of a new kind appears;
improvements are shown and never fail. Exits 1 without comparing when
either run misses ranks (its traces declare ranks it has no trace of, see
'analyze'): its figures describe part of the job, and the missing rank may
be the slow one; --allow-missing-ranks compares them anyway, with a warning.

--format text (a table), markdown (a table to post as a CI comment,
regressions first and in bold) or json (the deltas with base, new, change,
regressed, improved, and the two runs' identities).

Examples:
  tpptrace compare base.json new.json
  tpptrace compare --threshold 10% nightly/2024-05-01.json run/
  tpptrace compare --format markdown base.json new.json > comment.md
  tpptrace analyze --json run/ > new.json && tpptrace compare base.json new.json || echo regression`,
}

func init() { compareCmd.Run = runCompare }

func runCompare(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, compareCmd)
	var in inputFlags
	in.register(fs)
	thr := fs.String("threshold", "5%", "relative growth that counts as a regression")
	format := fs.String("format", "text", "output `format`: "+strings.Join(rpt.CompareFormats, ", "))
	allowMissing := fs.Bool("allow-missing-ranks", false, "compare runs whose inputs declare ranks they have no trace of (warned, not refused)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("want BASE and NEW, got %s", plural(fs.NArg(), "argument"))
	}
	th, err := parseThreshold(*thr)
	if err != nil {
		return err
	}
	if !slices.Contains(rpt.CompareFormats, *format) {
		return usagef("--format: want one of %s, got %q", strings.Join(rpt.CompareFormats, ", "), *format)
	}
	var rs [2]*result.Result
	for i, p := range fs.Args() {
		if rs[i], _, err = in.load(ctx, env, []string{p}); err != nil {
			return err
		}
	}
	c := rpt.NewComparison(fs.Arg(0), rs[0], fs.Arg(1), rs[1], th)
	if err := c.Comparable(); err != nil && !*allowMissing {
		return fmt.Errorf("%w (--allow-missing-ranks compares them anyway)", err)
	}
	n, err := rpt.WriteComparison(env.Stdout, c, *format)
	if err != nil {
		return err
	}
	if n > 0 {
		return &CodeError{Code: ExitRegression, Msg: fmt.Sprintf("%d figure(s) regressed beyond %s", n, *thr)}
	}
	return nil
}

func parseThreshold(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || v < 0 {
		return 0, usagef("--threshold: want a percentage like 5%%, got %q", s)
	}
	return v / 100, nil
}
