package tpptrace

import (
	"context"
	"errors"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/analysis/whatif"
)

// AnalyzeOptions say how Analyze runs; the zero value is `tpptrace
// analyze` without flags.
type AnalyzeOptions struct {
	Layout layout.Flags   // --tp --pp --dp --cp --ep --order; zero: inferred
	Steps  []int32        // the step numbers to analyse (--steps); nil: every complete step
	Model  analysis.Model // tokens per step, FLOPs, peak (--tokens-per-step ...): tokens/s and MFU
	WhatIf bool           // also replay the step graph: Result.WhatIf (--whatif)
	// Tool is recorded in the Result; "": ToolVersion().
	Tool string
	// Progress, when set, is called with each analysis step's name
	// (analysis.Steps) as it starts.
	Progress func(step string)
}

// Analyze returns the Result of the trace, what `tpptrace analyze --json`
// prints. A Result file's Result is returned as it was read, with tokens/s
// and MFU recomputed when opts.Model has tokens per step.
func (t *Trace) Analyze(ctx context.Context, opts AnalyzeOptions) (*result.Result, error) {
	r, _, err := t.analyze(ctx, opts, false)
	return r, err
}

// AnalyzeDetail is Analyze that also returns what the analysis knows
// beyond the Result (every step's timeline, the clock offsets, every
// matched collective), for views that explore single events; the Detail
// is nil for a Result file or an op table.
func (t *Trace) AnalyzeDetail(ctx context.Context, opts AnalyzeOptions) (*result.Result, *analysis.Detail, error) {
	return t.analyze(ctx, opts, true)
}

func (t *Trace) analyze(ctx context.Context, opts AnalyzeOptions, detail bool) (*result.Result, *analysis.Detail, error) {
	o := t.options(opts)
	switch {
	case t.res != nil:
		analysis.Throughput(t.res, o.Model)
		return t.res, nil, nil
	case t.ops != nil:
		r, err := analysis.AnalyzeOpTable(t.ops, t.opsPath, o)
		return r, nil, err
	case t.ranked != nil && !detail && !o.WhatIf:
		r, err := analysis.AnalyzeRanks(ctx, t.model, t.ranked, o)
		return r, nil, err
	}
	if err := t.readAll(ctx); err != nil {
		return nil, nil, err
	}
	if detail {
		return analysis.AnalyzeDetail(ctx, t.model, o)
	}
	r, err := analysis.Analyze(ctx, t.model, o)
	return r, nil, err
}

// WhatIfGraph builds the step graph the what-if replay runs on (`tpptrace
// whatif`), from the op table or the trace; a Result file has none.
func (t *Trace) WhatIfGraph(ctx context.Context, opts AnalyzeOptions) (*whatif.Graph, error) {
	switch {
	case t.ops != nil:
		return whatif.FromOpTable(t.ops)
	case t.res != nil:
		return nil, errors.New("a Result file holds no step graph: the what-if replay needs the traces, a dataset or an op table")
	}
	if err := t.readAll(ctx); err != nil {
		return nil, err
	}
	return analysis.WhatIfGraph(ctx, t.model, t.options(opts))
}

// options are the analysis's options: opts, and the step regexp the
// trace was read with.
func (t *Trace) options(opts AnalyzeOptions) analysis.Options {
	o := analysis.Options{Layout: opts.Layout, StepRegex: t.stepRe, Steps: opts.Steps, Tool: opts.Tool,
		Progress: opts.Progress, Model: opts.Model, WhatIf: opts.WhatIf}
	if o.Tool == "" {
		o.Tool = ToolVersion()
	}
	return o
}
