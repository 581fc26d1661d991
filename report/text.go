package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
)

// TextOptions steer Text.
type TextOptions struct {
	Color    bool // ANSI colour for severities (only when the caller's env allows it)
	Findings int  // how many findings to show; 0 means 5
}

// Text writes the human diagnosis: a header line, the per-stage table, the
// top findings with evidence and remedy, and what input was skipped.
func Text(w io.Writer, res *result.Result, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, vocab.Safe(header(res)))
	if len(res.Stages) > 0 || NoPipeline(res) && len(res.Ranks) > 0 {
		fmt.Fprintln(bw)
		stageTable(bw, res)
	}
	fmt.Fprintln(bw)
	findings(bw, res, opts)
	if res.WhatIf != nil {
		fmt.Fprintln(bw)
		whatifText(bw, res.WhatIf)
	}
	skipped(bw, res)
	for _, wn := range res.Warnings {
		fmt.Fprintf(bw, "warning: %s\n", vocab.Safe(wn))
	}
	return bw.Flush()
}

func header(res *result.Result) string {
	l := res.Layout
	sched := "schedule " + res.Schedule
	if res.Microbatches > 0 {
		sched += fmt.Sprintf(" m=%d", res.Microbatches)
	}
	if res.VirtualStages > 1 {
		sched += fmt.Sprintf(" v=%d", res.VirtualStages)
	}
	if NoPipeline(res) {
		sched = "no pipeline"
	}
	return fmt.Sprintf("%s%s · %s (%s, by %s) · %s · step %s%s (%s%s)",
		plural(int64(res.WorldSize), "rank"), MissingNote(res), l, l.Order, l.By, sched, vocab.Duration(res.StepNs), period(res), plural(int64(len(res.Iterations)), "step"), stepsFrom(res.StepsFrom)) +
		throughput(res, " · ") + unaligned(res, " · ")
}

// period is ", period X" when the iteration period (the median rank's
// step) differs visibly from the span of the step across ranks.
func period(res *result.Result) string {
	if res.PeriodNs <= 0 || vocab.Duration(res.PeriodNs) == vocab.Duration(res.StepNs) {
		return ""
	}
	return ", period " + vocab.Duration(res.PeriodNs)
}

// unaligned is UnalignedText after sep, or "".
func unaligned(res *result.Result, sep string) string {
	if t := UnalignedText(res); t != "" {
		return sep + t
	}
	return ""
}

// UnalignedText names the ranks whose clock could not be aligned: "clocks
// of ranks 16–63 could not be aligned", or "" when every clock was.
func UnalignedText(res *result.Result) string {
	rs := res.Clock.UnalignedRanks
	switch len(rs) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("clock of rank %d could not be aligned", rs[0])
	}
	return fmt.Sprintf("clocks of ranks %s could not be aligned", RankSpans(rs))
}

// RankSpans writes sorted ranks with runs collapsed: "16–63, 70".
func RankSpans(rs []int) string { return result.RankSpans(rs) }

// MissingNote names the ranks the inputs declare but hold no trace of:
// " (rank 5 missing of 16)"; "" when none is missing.
func MissingNote(res *result.Result) string {
	if len(res.MissingRanks) == 0 {
		return ""
	}
	what := "ranks " + result.RankRanges(res.MissingRanks)
	if len(res.MissingRanks) == 1 {
		what = fmt.Sprintf("rank %d", res.MissingRanks[0])
	}
	if res.DeclaredWorldSize > 0 {
		return fmt.Sprintf(" (%s missing of %d)", what, res.DeclaredWorldSize)
	}
	return fmt.Sprintf(" (%s missing)", what)
}

// stepsFrom is ", " and StepsSource(from), or "" when it says nothing.
func stepsFrom(from string) string {
	if s := StepsSource(from); s != "" {
		return ", " + s
	}
	return ""
}

// StepsSource says in words what found the steps (the Result's
// steps_from): "from ProfilerStep ranges", "from the DP-sync period",
// "the whole trace"; "" when the Result does not say.
func StepsSource(from string) string {
	if f, ok := strings.CutPrefix(from, "annotations:"); ok {
		return "from " + f + " ranges"
	}
	switch from {
	case "":
		return ""
	case "step-regex":
		return "from --step-regex ranges"
	case "dp-sync-period", "world-sync-period":
		return "from the " + strings.ToUpper(strings.TrimSuffix(from, "-sync-period")) + "-sync period"
	case "kernel-period":
		return "from a kernel run once per step"
	case "whole-trace":
		return "the whole trace"
	}
	return "from " + from
}

// throughput is res's tokens/s and MFU (or achieved TFLOP/s per GPU
// without a peak), each after sep; "" when the user gave no tokens per
// step.
func throughput(res *result.Result, sep string) string {
	s := ""
	if res.TokensPerS > 0 {
		s += sep + TokensPerS(res.TokensPerS)
	}
	if t := MFUText(res); t != "" {
		s += sep + t
	}
	return s
}

// TokensPerS formats a throughput: "10,000,000 tokens/s".
func TokensPerS(v float64) string { return vocab.Count(int64(math.Round(v))) + " tokens/s" }

// MFUText is "MFU 26.5 % (262 of 989 TFLOP/s per GPU)", or without a peak
// "262 TFLOP/s per GPU", or "" when the model FLOPs are not known.
func MFUText(res *result.Result) string {
	switch {
	case res.PeakTFLOPsPerGPU > 0:
		return fmt.Sprintf("MFU %s (%.0f of %.0f TFLOP/s per GPU)", vocab.Percent(res.MFU), res.ModelTFLOPsPerGPU, res.PeakTFLOPsPerGPU)
	case res.ModelTFLOPsPerGPU > 0:
		return fmt.Sprintf("%.0f TFLOP/s per GPU", res.ModelTFLOPsPerGPU)
	}
	return ""
}

// stageTable writes one line per stage: compute, the bubble (ms, share of
// the step, ideal) and the exposed communication outside it. The bubble is
// what the pipeline-bubble finding counts plus its PP transfer, which the
// exposed-PP finding counts and the "PP xfer" column shows; the exposed PP
// time in which a send/recv waits for its neighbour is bubble, not listed
// again.
func stageTable(w io.Writer, res *result.Result) {
	if NoPipeline(res) {
		rankTable(w, res)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	extra := extraAxes(res.Layout, slices.Contains(commAxes(res), "A2A"))
	head := "stage\tranks\tcompute ms\tfwd ms\tbwd ms\tbubble ms\tbubble\tideal\texp TP ms\tPP xfer ms\texp DP ms\t"
	for _, ax := range extra {
		head += "exp " + ax + " ms\t"
	}
	mem := hasPeakMem(res.Stages)
	if mem {
		head += "peak mem\t"
	}
	fmt.Fprintln(tw, head)
	for _, s := range res.Stages {
		mark := ""
		if s.Stage == res.BottleneckStage && len(res.Stages) > 1 {
			mark = "*"
		}
		fmt.Fprintf(tw, "%d%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t", s.Stage, mark, len(s.Ranks),
			vocab.Millis(s.ComputeNs), vocab.Millis(s.ForwardNs), vocab.Millis(s.BackwardNs),
			vocab.Millis(s.BubbleNs), vocab.Percent(s.BubbleFraction), idealCell(res, s),
			vocab.Millis(s.ExposedNs["TP"]), vocab.Millis(s.BubblePPTransferNs), vocab.Millis(s.ExposedNs["DP"]))
		for _, ax := range extra {
			fmt.Fprintf(tw, "%s\t", vocab.Millis(s.ExposedNs[ax]))
		}
		if mem {
			fmt.Fprintf(tw, "%s\t", vocab.Bytes(s.PeakMemBytes))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if len(res.Stages) > 1 {
		fmt.Fprintf(w, "* bottleneck stage; imbalance (max/mean compute) %.2f\n", res.StageImbalance)
		fmt.Fprintln(w, bubbleNote(res.Stages))
		if note := scheduleNote(res); note != "" {
			fmt.Fprintln(w, note)
		}
	}
}

// idealCell is a stage's ideal bubble, or "–" when m is unknown.
func idealCell(res *result.Result, s result.StageStats) string {
	if res.Microbatches <= 0 {
		return "–"
	}
	return vocab.Percent(s.IdealBubbleFraction)
}

// hasPeakMem tells whether the trace had memory counters to take peaks from.
func hasPeakMem(stages []result.StageStats) bool {
	for _, s := range stages {
		if s.PeakMemBytes > 0 {
			return true
		}
	}
	return false
}

// extraAxes are the context- and expert-parallel axes the layout uses,
// and A2A when some rank runs such all-to-alls, which get their own
// exposed columns.
func extraAxes(l result.Layout, a2a bool) []string {
	var out []string
	if l.CP > 1 {
		out = append(out, "CP")
	}
	if l.EP > 1 {
		out = append(out, "EP")
	}
	if a2a {
		out = append(out, "A2A")
	}
	return out
}

// bubbleNote says what the bubble column holds, with the share of it spent
// by send/recv waiting for the neighbour.
func bubbleNote(stages []result.StageStats) string {
	var bubble, wait int64
	for _, s := range stages {
		bubble, wait = bubble+s.BubbleNs, wait+s.BubblePPWaitNs
	}
	note := "bubble: only pipeline send/recv, copies or nothing running"
	if bubble > 0 && wait > 0 {
		note += fmt.Sprintf(" (%s of it send/recv waiting for the neighbour)", vocab.Percent(float64(wait)/float64(bubble)))
	}
	return note + "; PP xfer: its part transferring"
}

var sevColor = map[string]string{"high": "\x1b[1;31m", "medium": "\x1b[33m", "low": "\x1b[36m", "info": "\x1b[2m"}

func findings(w io.Writer, res *result.Result, opts TextOptions) {
	n := opts.Findings
	if n <= 0 {
		n = 5
	}
	if len(res.Findings) == 0 {
		fmt.Fprintln(w, "no findings: nothing measurable is lost")
		return
	}
	fmt.Fprintf(w, "top findings (cost per step):\n")
	for i, f := range res.Findings[:min(n, len(res.Findings))] {
		fmt.Fprintf(w, "%2d. [%s] %s%s\n", i+1, severity(f, opts), vocab.Safe(prose.Headline(res, f)), cost(f))
		for _, e := range prose.Evidence(res, f) {
			fmt.Fprintf(w, "      · %s\n", vocab.Safe(e))
		}
		if f.Remedy != "" {
			fmt.Fprintf(w, "      → %s\n", vocab.Safe(f.Remedy))
		}
	}
	more := 0
	for i, f := range res.Findings[min(n, len(res.Findings)):] {
		if f.Severity == "high" || f.Severity == "medium" {
			fmt.Fprintf(w, "%2d. [%s] %s%s\n", n+i+1, severity(f, opts), vocab.Safe(prose.Headline(res, f)), cost(f))
		} else {
			more++
		}
	}
	if more > 0 {
		fmt.Fprintf(w, "    (%d more in --json)\n", more)
	}
}

func severity(f result.Finding, opts TextOptions) string {
	if opts.Color {
		return sevColor[f.Severity] + f.Severity + "\x1b[0m"
	}
	return f.Severity
}

// cost is " — 20.0 ms (16.6 %)", or nothing for a finding with no cost of
// its own (topology, throttled GPUs).
func cost(f result.Finding) string {
	if f.CostNs <= 0 {
		return ""
	}
	return fmt.Sprintf(" — %s (%s)", vocab.Duration(f.CostNs), vocab.Percent(f.CostShare))
}
