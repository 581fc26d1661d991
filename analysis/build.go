package analysis

import (
	"github.com/tpptrace/tpptrace/analysis/diagnose"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// The steps' outputs. Each step writes its own and reads the earlier
// ones; none writes the Result, which build assembles once at the end.

// prepared is what classify, align and segment found.
type prepared struct {
	layout    result.Layout
	clock     result.ClockStats
	stepsFrom string
	iters     []result.Iteration // analysed steps on the aligned clock
	stepNs    int64              // mean of iters
}

// measured is what the measure step found.
type measured struct {
	ranks    []result.RankStats // one per entry of run.ranks, same order
	periodNs int64
	kernels  []result.KernelStat
}

// scheduled is what the pipeline step found.
type scheduled struct {
	name     string
	m, v     int
	stages   []result.StageStats
	evidence []result.StageOrder
}

// diagnosed is what the diagnose step found.
type diagnosed struct {
	verdict   diagnose.Verdict
	slow      []result.SlowRank
	comms     []result.CommStats
	findings  []result.Finding
	rankSteps []result.RankStep
	timeline  *result.Timeline
}

// figures are the measured figures and verdicts so far, as diagnose reads them.
func (r *run) figures() *diagnose.Figures {
	return &diagnose.Figures{StepNs: r.prep.stepNs, Layout: r.prep.layout, Ranks: r.meas.ranks, Stages: r.sched.stages,
		Schedule: r.sched.name, Microbatches: r.sched.m, VirtualStages: r.sched.v, Comms: r.diag.comms,
		BottleneckStage: r.diag.verdict.Stage, StageImbalance: r.diag.verdict.Ratio, SlowRanks: r.diag.slow}
}

// build assembles the Result from the steps' outputs, once, after every
// step ran, and sets its throughput figures (Throughput).
func build(r *run) {
	res := newResult(r.t, r.opts)
	res.DeclaredWorldSize, res.MissingRanks = r.missing.declared, r.missing.ranks
	res.WorldSize, res.Layout, res.Clock, res.Warnings = len(r.t.Ranks), r.prep.layout, r.prep.clock, r.warnings
	res.StepsFrom, res.Iterations, res.StepNs = r.prep.stepsFrom, r.prep.iters, r.prep.stepNs
	res.Ranks, res.PeriodNs, res.Kernels = r.meas.ranks, r.meas.periodNs, r.meas.kernels
	res.Schedule, res.Microbatches, res.VirtualStages = r.sched.name, r.sched.m, r.sched.v
	res.Stages, res.ScheduleEvidence = r.sched.stages, r.sched.evidence
	res.BottleneckStage, res.StageImbalance, res.SlowRanks = r.diag.verdict.Stage, r.diag.verdict.Ratio, r.diag.slow
	res.Comms, res.Findings, res.RankSteps, res.Timeline = r.diag.comms, r.diag.findings, r.diag.rankSteps, r.diag.timeline
	res.WhatIf = r.whatif
	Throughput(res, r.opts.Model)
	r.res = res
}

// newResult is a Result with the trace's sources and what was skipped.
func newResult(t *model.Trace, opts Options) *result.Result {
	res := &result.Result{SchemaVersion: result.SchemaVersion, SchemaMinor: result.SchemaMinor, Tool: opts.Tool, BottleneckStage: -1, GPUName: gpuName(t)}
	for _, s := range t.Sources {
		res.Sources = append(res.Sources, result.Source{Path: s.Path, Format: s.Format, Version: s.Version})
	}
	for _, s := range t.Skipped {
		res.Skipped = append(res.Skipped, result.Skipped{Source: s.Source, Offset: s.Offset, Unit: s.Unit, Reason: s.Reason, Count: s.Count})
	}
	return res
}
