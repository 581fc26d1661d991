package tui

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// A job without a pipeline (PP = 1: DDP, FSDP, DLRM, one GPU) has no
// stages, bubble, microbatches or schedule: its overview shows a row per
// rank with compute, idle GPU time and the exposed communication of each
// axis that communicates, and its views say "idle" where a pipelined job
// says "bubble".

// noPipeline reports whether r's job has no pipeline: PP = 1, at most one stage.
func noPipeline(r *result.Result) bool { return r.Layout.PP <= 1 && len(r.Stages) <= 1 }

// overviewRanks is the most rank rows the overview shows; the Ranks tab has all.
const overviewRanks = 16

// rankAxes are the axis keys on which some rank communicates.
func rankAxes(r *result.Result) []string {
	var out []string
	for _, ax := range vocab.FindingAxes {
		if slices.ContainsFunc(r.Ranks, func(x result.RankStats) bool { return x.CommNs[ax] > 0 }) {
			out = append(out, ax)
		}
	}
	return out
}

// rankOverview is the overview's table for a job without a pipeline.
func rankOverview(c *Common, r *result.Result) []string {
	axes := rankAxes(r)
	head := fmt.Sprintf("%-6s %9s %9s %7s", "rank", "compute", "idle", "share")
	for _, ax := range axes {
		head += fmt.Sprintf(" %8s", "exp "+ax)
	}
	out := []string{c.Styles.Header.Render(head)}
	for _, x := range r.Ranks[:min(len(r.Ranks), overviewRanks)] {
		line := fmt.Sprintf("%-6d %9s %9s %7s", x.Rank, vocab.Duration(x.ComputeNs), vocab.Duration(x.IdleNs), vocab.Percent(share(x.IdleNs, x.StepNs)))
		for _, ax := range axes {
			line += fmt.Sprintf(" %8s", vocab.Duration(x.ExposedNs[ax]))
		}
		out = append(out, line)
	}
	if n := len(r.Ranks) - overviewRanks; n > 0 {
		out = append(out, fmt.Sprintf("… %d more ranks in the Ranks tab", n))
	}
	return append(out, "no pipeline (PP = 1): idle is the GPU running nothing; exp is communication with no compute under it, per step")
}

func share(ns, of int64) float64 {
	if of <= 0 {
		return 0
	}
	return float64(ns) / float64(of)
}

// noPipelineJobLine is JobLine without the schedule and the ideal bubble.
func noPipelineJobLine(r *result.Result) string {
	return fmt.Sprintf("world %d%s · %s · no pipeline · step %s", r.WorldSize, missingNote(r), r.Layout, vocab.Duration(r.StepNs))
}

// idleWord is what a rank's non-working time is called: "bubble" with a
// pipeline, "idle" without.
func idleWord(r *result.Result) string {
	if noPipeline(r) {
		return "idle"
	}
	return "bubble"
}

// noPipelineRankLine is the timeline's rank line without a pipeline.
func noPipelineRankLine(r result.RankStats, axes []string) string {
	s := fmt.Sprintf("rank %d (dp%d tp%d, %s GPU %d): compute %s · idle %s %s · exposed", r.Rank, r.DP, r.TP, vocab.Safe(r.Host), r.LocalGPU,
		vocab.Duration(r.ComputeNs), vocab.Duration(r.IdleNs), vocab.Percent(share(r.IdleNs, r.StepNs)))
	for _, ax := range axes {
		s += fmt.Sprintf(" %s %s", ax, vocab.Duration(r.ExposedNs[ax]))
	}
	return s
}

// noPipelineRanksHead and noPipelineRanksLine are the Ranks tab's columns
// without a pipeline: no pp coordinate or PP transfer, the idle share, and
// one exposed column per axis that communicates.
func noPipelineRanksHead(axes []string) string {
	s := fmt.Sprintf("  %-5s %-10s %-9s %9s %9s %8s", "rank", "host", "dp/tp", "step", "compute", "idle")
	for _, ax := range axes {
		s += fmt.Sprintf(" %9s", "exp "+ax)
	}
	return s + fmt.Sprintf(" %10s", "offset")
}

func noPipelineRanksLine(mark string, x result.RankStats, axes []string) string {
	s := fmt.Sprintf("%s%-5d %-10s %-9s %9s %9s %8s", mark, x.Rank, vocab.Safe(x.Host), fmt.Sprintf("%d/%d", x.DP, x.TP),
		vocab.Duration(x.StepNs), vocab.Duration(x.ComputeNs), vocab.Percent(share(x.IdleNs, x.StepNs)))
	for _, ax := range axes {
		s += fmt.Sprintf(" %9s", vocab.Duration(x.ExposedNs[ax]))
	}
	return s + fmt.Sprintf(" %10s", vocab.Duration(x.ClockOffsetNs))
}
