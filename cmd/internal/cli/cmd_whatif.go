package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/tpptrace/tpptrace"
	"github.com/tpptrace/tpptrace/analysis/whatif"
)

var whatifCmd = &Command{
	Name:    "whatif",
	Summary: "replay the step's dependency graph: self-check, ideal step, slowdown attribution, predicted fixes",
	Usage:   "tpptrace whatif [flags] <traces|dirs|dataset|trace-*.parquet>...",
	Long: `Builds the dependency graph of every analysed step (GPU kernels, collectives
and copies per rank; matched collectives and PP send/recv pairs as
synchronisation groups), replays it with the measured durations and launch
delays to check that it reproduces the recorded steps, then answers what-if
questions with the same engine (Lin et al., OSDI '25):

  T_ori    the step without launch delays (CPU-side gaps)
  T_ideal  every op type at its ideal duration (mean compute, median transfer)
  S        T_ori / T_ideal, attributed per DP replica, stage and op type
  M_W      share of the slowdown removed by fixing the ⌈3 %⌉ slowest workers
  M_S      share removed by fixing the last stage

and the scenarios (--scenario, comma-separated; default: all that apply):
  fix-rank        rank --fix-rank N runs its kernels at its stage peers' median
  balance-stages  every stage runs each kernel at the median over stages
  hide-dp         the DP collectives cost nothing and wait for no one
  zero-AXIS       the AXIS (tp, pp, dp, cp, ep) collectives transfer instantly
  no-delays       no launch delays

An op table (trace-*.parquet: one row per op of each worker, as published with
the OSDI '25 study) is replayed directly. When the self-check error exceeds
1 % of the step, no prediction is printed.

Examples:
  tpptrace whatif run1/
  tpptrace whatif --fix-rank 5 --scenario fix-rank,balance-stages run1/
  tpptrace whatif --json trace-ST.parquet
  tpptrace whatif --format markdown run1/ > whatif.md`,
}

func init() { whatifCmd.Run = runWhatIf }

// whatifOut is the --json document.
type whatifOut struct {
	Ops          int                 `json:"ops"`
	Groups       int                 `json:"groups"`
	Workers      int                 `json:"workers"`
	Report       *whatif.Report      `json:"report"`
	Predictions  []whatif.Prediction `json:"predictions,omitempty"`
	Withheld     string              `json:"withheld,omitempty"` // why predictions are missing
	CriticalPath map[string]float64  `json:"critical_path_s"`    // mean seconds per step by category
}

func runWhatIf(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, whatifCmd)
	var in inputFlags
	in.register(fs)
	asJSON := fs.Bool("json", false, "write the analysis as JSON")
	format := fs.String("format", "text", "`text`, markdown or json")
	names := fs.String("scenario", "", "comma-separated `scenarios` (default: all that apply)")
	rank := fs.Int("fix-rank", -1, "the `rank` the fix-rank scenario fixes")
	if err := parse(fs, args); err != nil {
		return err
	}
	g, err := whatifGraph(ctx, env, &in, fs.Args())
	if err != nil {
		return err
	}
	scs, err := pickScenarios(g, *names, int32(*rank))
	if err != nil {
		return err
	}
	out := whatifRun(g, scs)
	switch {
	case *asJSON || *format == "json":
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case *format == "markdown":
		return whatifMarkdown(env.Stdout, out)
	case *format == "text":
		return whatifText(env.Stdout, out)
	}
	return usagef("--format: want text, markdown or json, not %q", *format)
}

// whatifGraph opens the inputs and builds their step graph; an op table
// takes no analysis flags.
func whatifGraph(ctx context.Context, env *Env, in *inputFlags, args []string) (*whatif.Graph, error) {
	_, ops := optableArg(args)
	ops = ops && in.sample == ""
	if !ops && (in.sample == "") == (len(args) == 0) {
		return nil, usagef("want an input (traces, directories, a dataset, an op table) or --sample")
	}
	var opts tpptrace.AnalyzeOptions
	var stepRe *regexp.Regexp
	var err error
	if !ops {
		if opts, stepRe, err = in.options(); err != nil {
			return nil, err
		}
	}
	tr, err := in.open(ctx, env, args, stepRe)
	if err != nil {
		return nil, err
	}
	return tr.WhatIfGraph(ctx, opts)
}

func pickScenarios(g *whatif.Graph, names string, rank int32) ([]whatif.Scenario, error) {
	if names == "" {
		return whatif.Defaults(g, rank), nil
	}
	var out []whatif.Scenario
	for _, n := range strings.Split(names, ",") {
		s, err := whatif.Lookup(strings.TrimSpace(n), rank)
		if err != nil {
			return nil, usagef("--scenario: %v", err)
		}
		out = append(out, s)
	}
	return out, nil
}

func whatifRun(g *whatif.Graph, scs []whatif.Scenario) whatifOut {
	rep, preds, paths := whatif.Run(g, scs)
	return whatifOut{Ops: g.Len(), Groups: g.NumGroups(), Workers: len(g.Workers), Report: rep,
		Predictions: preds, Withheld: rep.Withheld(), CriticalPath: whatif.MeanPath(paths)}
}

func secs(s float64) string {
	return time.Duration(s * 1e9).Round(time.Microsecond).String()
}

func whatifText(w io.Writer, o whatifOut) error {
	r := o.Report
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("what-if replay: %d workers, %d steps, %d ops, %d sync groups\n", o.Workers, len(r.Steps), o.Ops, o.Groups)
	p("self-check: worst step error %.3g µs (%.2g of the step)\n", 1e6*r.CheckAbs, r.CheckRel)
	p("step: recorded %s; no launch delays (T_ori) %s, launch slowdown %.4f; ideal (T_ideal) %s, S %.4f\n",
		secs(r.TTrace), secs(r.TOri), r.LaunchSlowdown, secs(r.TIdeal), r.S)
	if len(r.ByRank) > 0 {
		shares(w, "S by rank", r.ByRank)
	}
	shares(w, "S by DP replica", r.ByDP)
	shares(w, "S by stage", r.ByStage)
	for _, tw := range r.TopWorkers {
		p("slowest worker: rank %d (dp %d, stage %d)\n", tw.Rank, tw.DP, tw.Stage)
	}
	p("fix the slow workers: step %s, M_W %.4f\n", secs(r.MW.TRem), r.MW.M)
	p("fix the last stage:   step %s, M_S %.4f\n", secs(r.MS.TRem), r.MS.M)
	p("critical path (mean per step):")
	for _, k := range whatif.SortedCategories(o.CriticalPath) {
		p("  %s %s", k, secs(o.CriticalPath[k]))
	}
	p("\n")
	if o.Withheld != "" {
		p("%s\n", o.Withheld)
		return nil
	}
	p("\nscenario                 predicted step    change    ops changed\n")
	for _, s := range o.Predictions {
		p("%-24s %-17s %-9s %d\n", s.Name, secs(s.StepS), fmt.Sprintf("%+.1f%%", -100*s.GainS/r.TTrace), s.Changed)
	}
	return nil
}

func shares(w io.Writer, title string, ss []whatif.Share) {
	fmt.Fprintf(w, "%s:", title)
	for _, s := range ss {
		fmt.Fprintf(w, "  %d %.4f", s.ID, s.S)
	}
	fmt.Fprintln(w)
}

// whatifMarkdown writes the replay as Markdown: the figures, then the
// scenarios and the critical path as tables.
func whatifMarkdown(w io.Writer, o whatifOut) error {
	r := o.Report
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("# What if\n\n| | |\n|---|---|\n")
	p("| replay | %d workers, %d steps, %d ops, %d sync groups |\n", o.Workers, len(r.Steps), o.Ops, o.Groups)
	p("| self-check | %.3g µs (%.2g of the step) |\n", 1e6*r.CheckAbs, r.CheckRel)
	p("| recorded step | %s |\n| without launch delays (T_ori) | %s (launch slowdown %.4f) |\n", secs(r.TTrace), secs(r.TOri), r.LaunchSlowdown)
	p("| ideal (T_ideal) | %s (S %.4f) |\n", secs(r.TIdeal), r.S)
	p("| fix the slow workers | %s (M_W %.4f) |\n| fix the last stage | %s (M_S %.4f) |\n", secs(r.MW.TRem), r.MW.M, secs(r.MS.TRem), r.MS.M)
	if o.Withheld != "" {
		p("\n%s\n", o.Withheld)
	} else if len(o.Predictions) > 0 {
		p("\n| scenario | predicted step | change | ops changed |\n|---|---:|---:|---:|\n")
		for _, s := range o.Predictions {
			p("| %s | %s | %+.1f %% | %d |\n", s.Name, secs(s.StepS), -100*s.GainS/r.TTrace, s.Changed)
		}
	}
	p("\n| critical path | per step |\n|---|---:|\n")
	for _, k := range whatif.SortedCategories(o.CriticalPath) {
		p("| %s | %s |\n", strings.ReplaceAll(k, "|", "\\|"), secs(o.CriticalPath[k]))
	}
	return nil
}
