package analysis

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/tpptrace/tpptrace/analysis/clock"
	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/analysis/pipeline"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/analysis/steps"
	"github.com/tpptrace/tpptrace/model"
)

// Options steer an analysis. The zero value infers everything.
type Options struct {
	Layout    layout.Flags   // --tp --pp --dp --cp --ep --order
	StepRegex *regexp.Regexp // ranges that delimit steps (nsys NVTX); nil: step-like names (steps.StepLike), else the DP-sync period
	Steps     []int32        // iterations to analyse; nil: every complete one
	Tool      string         // "tpptrace <version>", recorded in the Result
	Progress  func(step string)
	Model     Model // tokens per step, model FLOPs and GPU peak for tokens/s and MFU; zero: neither
	WhatIf    bool  // replay the step graph (the whatif step): Result.WhatIf
}

// Step is one named step of an analysis.
type Step struct {
	Name string
	Help string // one line
	Run  func(r *run) error
	// Early, when set, starts the part of Run that needs only the steps
	// before the previous one; runSteps calls it just before the previous
	// step, so that part runs on another core beside it. Run waits for it.
	// What Early starts writes nothing the previous step reads.
	Early func(r *run)
}

// Steps is the registry of analysis steps, in the order Analyze runs them.
var Steps = []Step{
	{"classify", "infer the parallel layout: each communicator's axis (TP/PP/DP/CP/EP) and each rank's coordinates", classify, nil},
	{"align", "match collective instances across ranks and estimate each host's clock offset from their common end", align, nil},
	{"segment", "find each rank's step windows (--step-regex ranges, step-like ranges: ProfilerStep#N, train_step N, iteration N ..., or the DP-sync period)", segment, startFind},
	{"measure", "per rank and step: compute, comm and exposed comm per axis, memcpy, idle, bubble; per collective: wait, transfer", measureStep, nil},
	{"pipeline", "detect the schedule (GPipe, 1F1B, interleaved) and m; ideal bubble; split bubbles into fill/drain and steady", pipelineStep, nil},
	{"diagnose", "stage imbalance, slow ranks, communicator α-β fits, ranked findings with cost, evidence and remedy", diagnoseStep, nil},
	{"whatif", "with --whatif: replay the step graph: self-check, step without delays and at ideal, S, M_W, M_S, scenarios, critical path", whatifStep, nil},
}

// run is the state the steps share.
type run struct {
	t         *model.Trace // the cross-rank steps' trace; instances and peers name its rows
	src       RankSource   // one rank's events at a time, for the per-rank pass (rankPass)
	opts      Options
	layout    layout.Layout
	inst      []clock.Instance
	off       clock.Offsets
	steps     steps.Steps
	ranks     []rankRun // one per entry of t.Ranks that has step windows
	tm        measure.Timings
	byRank    map[int32]int       // rank -> index into ranks, built on first use (rankSlot)
	denseRank []int32             // the same by rank value, −1 for none, when the ranks are small
	missing   missing             // declared ranks without a timeline
	found     func() foundSteps   // waits for segment's windows, when startFind looks for them beside align; nil: segment does
	instIn    []bool              // by instance of tm: whether it lies in an analysed step (inSteps)
	opNames   map[[2]uint8]string // by axis and op: opName's answers

	// The steps' outputs, and the Result build makes of them.
	warnings []string // in step order
	prep     prepared
	meas     measured
	sched    scheduled
	diag     diagnosed
	whatif   *result.WhatIf
	res      *result.Result // nil until build
}

// rankRun is one rank's measured state.
type rankRun struct {
	rank  int32
	stage int
	act   measure.Activity
	figs  []measure.Figures // one per analysed step
	pipe  pipeline.Rank
	ops   [][]pipeline.Op // per step

	kernels []kernelSum // by name id, until kernelStats sums the ranks
}

// Analyze runs every step of Steps on t (which it annotates: communicator
// axes, rank coordinates, event iterations) and returns the Result.
func Analyze(ctx context.Context, t *model.Trace, opts Options) (*result.Result, error) {
	r, err := analyze(ctx, t, opts)
	if err != nil {
		return nil, err
	}
	return r.res, nil
}

// AnalyzeRanks is Analyze of a trace t that holds, of every rank's
// events, only those the cross-rank steps read (model.Events.CrossRank,
// and of the annotations those StepAnnotation accepts; every table whole), reading each rank's every event from src one rank at
// a time: the memory it holds grows with the largest rank, not with the
// job (docs/memory.md). The what-if replay reads every event: with
// Options.WhatIf it is an error.
func AnalyzeRanks(ctx context.Context, t *model.Trace, src RankSource, opts Options) (*result.Result, error) {
	if opts.WhatIf {
		return nil, errors.New("analysis: the what-if replay needs every rank's events at once")
	}
	r := &run{t: t, src: src, opts: opts}
	if err := r.runSteps(ctx); err != nil {
		return nil, err
	}
	return r.res, nil
}

// newRun is the state of an analysis of the in-memory trace t: the
// per-rank pass views its ranks one at a time (fullSource).
func newRun(t *model.Trace, opts Options) *run {
	return &run{t: t, src: newFullSource(t), opts: opts}
}

// analyze runs every step, then build, and returns their shared state.
func analyze(ctx context.Context, t *model.Trace, opts Options) (*run, error) {
	r := newRun(t, opts)
	if err := r.runSteps(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// runSteps runs every step, then build. A step's Early part starts just
// before the step ahead of it (Step.Early).
func (r *run) runSteps(ctx context.Context) error {
	defer r.drainEarly()
	opts := r.opts
	for i, s := range Steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if opts.Progress != nil {
			opts.Progress(s.Name)
		}
		if i+1 < len(Steps) && Steps[i+1].Early != nil {
			Steps[i+1].Early(r)
		}
		if err := s.Run(r); err != nil {
			return fmt.Errorf("analysis: %s: %w", s.Name, err)
		}
	}
	build(r)
	return nil
}

// drainEarly waits for an Early part that no step took, so that nothing
// touches the trace after Analyze returns.
func (r *run) drainEarly() {
	if r.found != nil {
		r.found()
		r.found = nil
	}
}
