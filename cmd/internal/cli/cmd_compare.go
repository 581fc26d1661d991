package cli

import (
	"context"
	"fmt"
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
communication and the slowest stage's compute. BASE and NEW are Result files
written by 'tpptrace analyze --json', or trace directories / datasets, which are
analysed first (the layout flags apply to both). Exits 3 when a figure grows by
more than --threshold (times must also grow by more than 0.5 % of the base step).

Examples:
  tpptrace compare base.json new.json
  tpptrace compare --threshold 10% nightly/2024-05-01.json run/
  tpptrace analyze --json run/ > new.json && tpptrace compare base.json new.json || echo regression`,
}

func init() { compareCmd.Run = runCompare }

func runCompare(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, compareCmd)
	var in inputFlags
	in.register(fs)
	thr := fs.String("threshold", "5%", "relative growth that counts as a regression")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("want BASE and NEW, got %d arguments", fs.NArg())
	}
	th, err := parseThreshold(*thr)
	if err != nil {
		return err
	}
	var rs [2]*result.Result
	for i, p := range fs.Args() {
		if rs[i], _, err = in.load(ctx, env, []string{p}); err != nil {
			return err
		}
	}
	if n := rpt.CompareText(env.Stdout, rpt.Compare(rs[0], rs[1], th)); n > 0 {
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
