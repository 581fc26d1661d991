package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	rpt "github.com/tpptrace/tpptrace/report"
	"github.com/tpptrace/tpptrace/report/gate"
)

var compareCmd = &Command{
	Name:    "compare",
	Summary: "compare two runs and fail on a regression (the nightly CI gate)",
	Usage:   "tpptrace compare [flags] BASE NEW",
	Long: `Compares two runs on the figures a performance gate should keep (not just
the step time): step time, throughput, each stage's bubble, exposed TP/PP/DP
communication and, of it, the wait for late or slow members (TP, DP), the
slowest stage's compute, the ranks named slow or late in either run and the
findings only one run has. BASE and NEW are Result files written by
'tpptrace analyze --json', or trace directories / datasets, which are analysed
first (the layout flags apply to both).

The default gates judge time costs per step and throughput. Exits 3 when one
grows (throughput: falls) by more than --threshold, by more than its floor
(times: 0.5 % of the base step) and, with several steps, by more than the
steps' own spread (shown); a rank newly named slow or late, or a finding of
a new kind, also fails. Fractions (a stage's bubble share) are shown in
percentage points and judged only when their time cost grew too, or when
--gate names them: a faster run with a larger bubble fraction passes.
Improvements are shown and never fail. --gate KIND[:THRESHOLD] (repeatable)
gates a figure with its own threshold (5%, 2ms, or 1pp for fractions);
KIND is one of these, or one figure's id:
` + gate.MetricsHelp() + `
Exits 1 without comparing when the runs are not comparable: a run misses
ranks (its traces declare ranks it has no trace of, see 'analyze'), or the
layout, GPU model or world size differs; the reason is said.
--allow-different compares them anyway, with warnings;
--allow-missing-ranks allows missing ranks only.

--format text (a table), markdown (a table to post as a CI comment or step
summary, regressions first and in bold), json (the deltas with id, name,
base, new, change, change_pp for fractions, spread, regressed, improved,
and the two runs' identities) or junit (one test case per figure, a failure
for each regression with its delta and threshold).

Examples:
  tpptrace compare base.json new.json
  tpptrace compare --threshold 10% nightly/2024-05-01.json run/
  tpptrace compare --gate bubble_fraction:2pp --gate exposed_tp_ns:1ms base.json new.json
  tpptrace compare --format junit base.json new.json > compare.xml
  tpptrace analyze --json run/ > new.json && tpptrace compare base.json new.json || echo regression`,
}

func init() { compareCmd.Run = runCompare }

// compareFlags are compare's own flags.
type compareFlags struct {
	threshold, format string
	gates             []gate.Selector
	allowDifferent    bool
	allowMissing      bool
}

func (c *compareFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.threshold, "threshold", "5%", "relative growth that counts as a regression")
	fs.StringVar(&c.format, "format", "text", "output `format`: "+strings.Join(rpt.CompareFormats, ", "))
	fs.Func("gate", "KIND[:THRESHOLD]: gate these figures too, or with their own threshold (repeatable)", func(s string) error {
		sel, err := gate.ParseSelector(s)
		c.gates = append(c.gates, sel)
		return err
	})
	fs.BoolVar(&c.allowDifferent, "allow-different", false, "compare runs of different layouts, GPUs or world sizes, or missing ranks (warned, not refused)")
	fs.BoolVar(&c.allowMissing, "allow-missing-ranks", false, "compare runs whose inputs declare ranks they have no trace of (warned, not refused)")
}

// allowed is the kinds of difference the flags allow.
func (c *compareFlags) allowed() []string {
	switch {
	case c.allowDifferent:
		return []string{rpt.DiffMissingRanks, rpt.DiffLayout, rpt.DiffGPU, rpt.DiffWorldSize}
	case c.allowMissing:
		return []string{rpt.DiffMissingRanks}
	}
	return nil
}

func runCompare(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, compareCmd)
	var in inputFlags
	in.register(fs)
	var cf compareFlags
	cf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("want BASE and NEW, got %s", plural(fs.NArg(), "argument"))
	}
	th, err := parseThreshold(cf.threshold)
	if err != nil {
		return err
	}
	if !slices.Contains(rpt.CompareFormats, cf.format) {
		return usagef("--format: want one of %s, got %q", strings.Join(rpt.CompareFormats, ", "), cf.format)
	}
	var rs [2]*result.Result
	for i, p := range fs.Args() {
		if rs[i], _, err = in.load(ctx, env, []string{p}); err != nil {
			return err
		}
	}
	c := rpt.NewComparisonWith(fs.Arg(0), rs[0], fs.Arg(1), rs[1], rpt.Options{Threshold: th, Gates: cf.gates})
	if err := c.Comparable(cf.allowed()...); err != nil {
		return fmt.Errorf("%w (--allow-different compares them anyway)", err)
	}
	n, err := rpt.WriteComparison(env.Stdout, c, cf.format)
	if err != nil {
		return err
	}
	if n > 0 {
		return &CodeError{Code: ExitRegression, Msg: fmt.Sprintf("%d figure(s) regressed beyond %s", n, cf.threshold)}
	}
	return nil
}

// parseThreshold reads --threshold: a relative growth like 5% (a bare
// number is a percentage).
func parseThreshold(s string) (float64, error) {
	r, err := gate.ParseRule(s)
	if err != nil || r.HasAbs {
		return 0, usagef("--threshold: want a percentage like 5%%, got %q", s)
	}
	return r.Rel, nil
}
