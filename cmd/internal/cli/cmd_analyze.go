package cli

import (
	"context"
	"flag"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace"
	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/layout"
	rpt "github.com/tpptrace/tpptrace/report"
	"github.com/tpptrace/tpptrace/report/gate"
)

var analyzeCmd = &Command{
	Name:    "analyze",
	Summary: "diagnose why a training step is slow: bubble, exposed comm, imbalance, slow ranks",
	Usage:   "tpptrace analyze [flags] <traces|dirs|dataset>...",
	Long: `Reads the traces of one job (Kineto JSON, nsys SQLite, NCCL logs; files or
directories) or a dataset written by 'tpptrace ingest', and prints a diagnosis:
the layout and schedule, a per-stage table (compute, bubble measured vs ideal,
exposed TP/PP/DP communication) and the findings ranked by their cost per step,
each with evidence and a remedy. Progress goes to stderr, the report to stdout.
When the traces declare more ranks than they hold (Kineto's
distributedInfo.world_size, nsys's WORLD_SIZE, a process group's members),
the header and a high missing_ranks finding name the ranks missing: every
figure then describes the ranks read only, and 'compare' refuses the run.

The layout is inferred from process-group names and traffic; --tp/--pp/--dp
(and --order) override it. --fail-on turns a finding into a CI gate: the
command exits 3 when a finding of that kind costs more than the threshold
(a share of the step like 15%, or a duration like 5ms; no threshold: any;
missing_ranks, which has no cost, whenever it is there).
An unknown kind or a malformed threshold is a usage error (exit 2).
Kinds (alias), from the registry docs/semantics.md lists:
` + gate.FindingKindsHelp() + `
Analysis steps, in order:
` + stepsHelp() + `
Examples:
  tpptrace analyze run1/                       # a directory of per-rank traces
  tpptrace analyze --json run1/ > run1.json    # the Result, for compare and scripts
  tpptrace analyze --tp 2 --pp 4 --dp 1 run1/  # when process groups carry no names
  tpptrace analyze --steps 5,6 ds/             # only ProfilerStep#5 and #6 of a dataset
  tpptrace analyze --step-regex '^fwd_bwd (\d+)$' nsys/   # steps from custom NVTX ranges
  tpptrace analyze --tokens-per-step 4M --params 70B run1/   # adds tokens/s and MFU
  tpptrace analyze --fail-on pipeline_bubble:20% --fail-on exposed_dp_comm:5ms run1/`,
}

func init() { analyzeCmd.Run = runAnalyze }

// analyzeFlags are the flags analyze and compare share.
type analyzeFlags struct {
	tp, pp, dp, cp, ep int
	order, stepRe      string
	steps              string
	whatif             bool
	model              analysis.Model // --tokens-per-step, --flops-per-token, --params, --peak-tflops
}

func (a *analyzeFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&a.tp, "tp", 0, "tensor-parallel size (0: infer)")
	fs.IntVar(&a.pp, "pp", 0, "pipeline-parallel size (0: infer)")
	fs.IntVar(&a.dp, "dp", 0, "data-parallel size (0: infer)")
	fs.IntVar(&a.cp, "cp", 0, "context-parallel size (0: infer)")
	fs.IntVar(&a.ep, "ep", 0, "expert-parallel size (0: infer)")
	fs.StringVar(&a.order, "order", "", `rank order, fastest first (default Megatron's "tp-cp-ep-dp-pp")`)
	fs.StringVar(&a.stepRe, "step-regex", "", "`regexp` of the ranges that delimit steps, its first group the step number; overrides the step-like names (ProfilerStep#N, train_step N, iteration N, step_N ...)")
	fs.StringVar(&a.steps, "steps", "", "comma-separated step numbers to analyse (default: every complete step)")
	fs.BoolVar(&a.whatif, "whatif", false, "also replay the step graph: the what-if section (ideal step, M_W, M_S, scenarios, critical path)")
	countFlag(fs, &a.model.TokensPerStep, "tokens-per-step", "global batch `tokens` per step: adds tokens/s (and MFU with --params or --flops-per-token)")
	countFlag(fs, &a.model.FLOPsPerToken, "flops-per-token", "training `FLOPs` per token (forward and backward) for MFU")
	countFlag(fs, &a.model.Params, "params", "model `parameters` (7e9, 7B) for MFU, at 6·P FLOPs per token (dense transformer)")
	fs.Float64Var(&a.model.PeakTFLOPs, "peak-tflops", 0, "per-GPU peak `TFLOP/s` for MFU (default: dense bf16 peak of the trace's GPU)")
}

// countFlag defines a non-negative number flag that takes 1e6, 1M, 7B or 2T.
func countFlag(fs *flag.FlagSet, v *float64, name, usage string) {
	fs.Func(name, usage, func(s string) error {
		n, err := parseCount(s)
		*v = n
		return err
	})
}

// parseCount reads a non-negative number with an optional K, M, B (or G)
// or T suffix.
func parseCount(s string) (float64, error) {
	mult := map[byte]float64{'k': 1e3, 'K': 1e3, 'm': 1e6, 'M': 1e6, 'b': 1e9, 'B': 1e9, 'g': 1e9, 'G': 1e9, 't': 1e12, 'T': 1e12}
	m, num := 1.0, strings.TrimSpace(s)
	if len(num) > 1 {
		if k, ok := mult[num[len(num)-1]]; ok {
			m, num = k, num[:len(num)-1]
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a count (want 1e6, 1M, 7B)", s)
	}
	return v * m, nil
}

// checkModel rejects model flags that could not be used.
func checkModel(m analysis.Model) error {
	switch {
	case m.FLOPsPerToken > 0 && m.Params > 0:
		return usagef("give --flops-per-token or --params, not both")
	case m.TokensPerStep == 0 && (m.FLOPsPerToken > 0 || m.Params > 0 || m.PeakTFLOPs > 0):
		return usagef("--flops-per-token, --params and --peak-tflops need --tokens-per-step")
	case m.PeakTFLOPs < 0:
		return usagef("--peak-tflops: want a positive number")
	}
	return nil
}

// maxAxisSize bounds --tp, --pp, --dp, --cp and --ep (a million ranks).
const maxAxisSize = 1 << 20

// checkLayout refuses out-of-range axis sizes and a bad --order as usage
// errors (exit 2).
func (a *analyzeFlags) checkLayout() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"tp", a.tp}, {"pp", a.pp}, {"dp", a.dp}, {"cp", a.cp}, {"ep", a.ep}} {
		if f.v < 0 || f.v > maxAxisSize {
			return usagef("--%s %d: want a size from 1 to %d, or 0 to infer it", f.name, f.v, maxAxisSize)
		}
	}
	if err := layout.CheckOrder(a.order); err != nil {
		return usagef("--order: %v", err)
	}
	return nil
}

// options are the library's analysis options of the flags, and the
// compiled --step-regex (an option of reading too).
func (a *analyzeFlags) options() (tpptrace.AnalyzeOptions, *regexp.Regexp, error) {
	o := tpptrace.AnalyzeOptions{Tool: ToolVersion(), Model: a.model, WhatIf: a.whatif}
	if err := checkModel(a.model); err != nil {
		return o, nil, err
	}
	if err := a.checkLayout(); err != nil {
		return o, nil, err
	}
	o.Layout = layout.Flags{TP: a.tp, PP: a.pp, DP: a.dp, CP: a.cp, EP: a.ep, Order: a.order}
	var re *regexp.Regexp
	if a.stepRe != "" {
		var err error
		if re, err = regexp.Compile(a.stepRe); err != nil {
			return o, nil, usagef("--step-regex: %v", err)
		}
	}
	for _, s := range strings.FieldsFunc(a.steps, func(r rune) bool { return r == ',' }) {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return o, nil, usagef("--steps: %q is not a step number", s)
		}
		o.Steps = append(o.Steps, int32(n))
	}
	return o, re, nil
}

func runAnalyze(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, analyzeCmd)
	var in inputFlags
	in.register(fs)
	asJSON := fs.Bool("json", false, "write the Result as JSON instead of the text report")
	var gates gate.FailOns
	fs.Var(&gates, "fail-on", "KIND[:THRESHOLD]: exit 3 when such a finding costs more (repeatable)")
	byRank := fs.String("by-rank", "auto", "read a dataset (sharded or not) or warm cache entry one rank at a time, to bound memory: `auto` (jobs of 2 M events or more), on, off")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := in.setByRank(*byRank); err != nil {
		return err
	}
	res, _, err := in.load(ctx, env, fs.Args())
	if err != nil {
		return err
	}
	if *asJSON {
		err = rpt.JSON(env.Stdout, res)
	} else {
		err = rpt.Text(env.Stdout, res, rpt.TextOptions{Color: env.Color})
	}
	if err != nil {
		return err
	}
	if f, failed := gates.First(res); failed {
		return &CodeError{Code: ExitRegression, Msg: f.String()}
	}
	return nil
}

func stepsHelp() string {
	var b strings.Builder
	for _, s := range analysis.Steps {
		fmt.Fprintf(&b, "  %-9s %s\n", s.Name, s.Help)
	}
	return b.String()
}
