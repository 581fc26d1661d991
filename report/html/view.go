package html

import (
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report"
	"github.com/tpptrace/tpptrace/report/prose"
)

// meta is one line of the run's metadata: a name and its value.
type meta struct{ Name, Value string }

// metadata lists the run's facts in display order.
func metadata(r *result.Result) []meta {
	l := r.Layout
	layout := fmt.Sprintf("TP %d × PP %d × DP %d", l.TP, l.PP, l.DP)
	if l.CP > 1 || l.EP > 1 {
		layout += fmt.Sprintf(" × CP %d × EP %d", max(l.CP, 1), max(l.EP, 1))
	}
	if l.Order != "" || l.By != "" {
		layout += fmt.Sprintf(" (order %s, from %s)", l.Order, l.By)
	}
	sched := r.Schedule
	if r.VirtualStages > 1 {
		sched += fmt.Sprintf(", %d chunks per stage", r.VirtualStages)
	}
	pipeline := []meta{{"schedule", fmt.Sprintf("%s, %d microbatches", sched, r.Microbatches)}}
	if report.NoPipeline(r) {
		pipeline = []meta{{"pipeline", "none (PP = 1)"}}
	}
	out := append([]meta{
		{"tool", r.Tool},
		{"ranks", fmt.Sprint(r.WorldSize) + report.MissingNote(r)},
		{"layout", layout},
	}, pipeline...)
	out = append(out, meta{"steps analysed", stepsLine(r.Iterations, r.StepsFrom)}, meta{"step time", vocab.Duration(r.StepNs)})
	if !report.NoPipeline(r) {
		out = append(out, meta{"bottleneck stage", fmt.Sprintf("%d (imbalance %.2f)", r.BottleneckStage, r.StageImbalance)})
	}
	out = append(out,
		meta{"clock alignment", clockLine(r)},
		meta{"sources", sourcesLine(r.Sources)})
	return append(out, throughputMeta(r)...)
}

// clockLine is the alignment method and residual, and the ranks left
// unaligned.
func clockLine(r *result.Result) string {
	s := fmt.Sprintf("%s, residual %s over %d collectives", r.Clock.Method, vocab.Duration(r.Clock.ResidualNs), r.Clock.Matched)
	if t := report.UnalignedText(r); t != "" {
		s += "; " + t
	}
	return s
}

// throughputMeta is the tokens/s and MFU lines, when the user gave the
// figures they need.
func throughputMeta(r *result.Result) []meta {
	var out []meta
	if r.TokensPerS > 0 {
		out = append(out, meta{"throughput", report.TokensPerS(r.TokensPerS)})
	}
	if t := report.MFUText(r); t != "" {
		if r.PeakFrom != "" {
			t += ", peak from " + r.PeakFrom
		}
		out = append(out, meta{"model FLOPs", t})
	}
	return out
}

func stepsLine(its []result.Iteration, from string) string {
	if len(its) == 0 {
		return "none"
	}
	s := fmt.Sprintf("%d (steps %d–%d)", len(its), its[0].Index, its[len(its)-1].Index)
	if f := report.StepsSource(from); f != "" {
		s += ", " + f
	}
	return s
}

func sourcesLine(src []result.Source) string {
	formats := map[string]int{}
	var order []string
	for _, s := range src {
		if formats[s.Format] == 0 {
			order = append(order, s.Format)
		}
		formats[s.Format]++
	}
	parts := make([]string, len(order))
	for i, f := range order {
		parts[i] = fmt.Sprintf("%d %s", formats[f], f)
	}
	return fmt.Sprintf("%d files (%s)", len(src), strings.Join(parts, ", "))
}

// stageRow is one line of the stage table. PP is the bubble's PP transfer
// (the exposed PP finding) and Wait its PP send/recv waiting for the
// neighbour; both are parts of Bubble.
type stageRow struct {
	Stage, Ranks, Compute, TP, PP, DP, Bubble, Wait, Fraction, Ideal string
	Bottleneck                                                       bool
}

func stageRows(r *result.Result) []stageRow {
	if report.NoPipeline(r) {
		return nil // the rank table instead
	}
	rows := make([]stageRow, len(r.Stages))
	for i, s := range r.Stages {
		rows[i] = stageRow{
			Stage: fmt.Sprint(s.Stage), Ranks: fmt.Sprint(len(s.Ranks)), Compute: vocab.Duration(s.ComputeNs),
			TP: vocab.Duration(s.ExposedNs["TP"]), PP: vocab.Duration(s.BubblePPTransferNs), DP: vocab.Duration(s.ExposedNs["DP"]),
			Bubble: vocab.Duration(s.BubbleNs), Wait: vocab.Duration(s.BubblePPWaitNs), Fraction: vocab.Percent(s.BubbleFraction), Ideal: vocab.Percent(s.IdealBubbleFraction),
			Bottleneck: s.Stage == r.BottleneckStage,
		}
	}
	return rows
}

// finding is a Result finding with its figures formatted.
type finding struct {
	result.Finding
	Cost, Share, Where string
	Summary            string   // the headline, rendered
	Evidence           []string // rendered
}

func findings(r *result.Result) []finding {
	out := make([]finding, len(r.Findings))
	for i, f := range r.Findings {
		out[i] = finding{Finding: f, Cost: vocab.Duration(f.CostNs), Share: vocab.Percent(f.CostShare), Where: where(f, !report.NoPipeline(r)),
			Summary: prose.Headline(r, f), Evidence: prose.Evidence(r, f)}
	}
	return out
}

// where names a finding's ranks, and its stages when the job has a pipeline.
func where(f result.Finding, stages bool) string {
	var parts []string
	if len(f.Ranks) > 0 {
		parts = append(parts, "ranks "+joinInts(f.Ranks))
	}
	if len(f.Stages) > 0 && stages {
		parts = append(parts, "stages "+joinInts(f.Stages))
	}
	return strings.Join(parts, "; ")
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// rankView is the rank table of a job without a pipeline, formatted:
// what a row is, the exposed axes, the rows (the mean last) and the note.
type rankView struct {
	Unit    string
	Axes    []string
	Rows    []rankViewRow
	Omitted int
	Note    string
	Passes  string
}

type rankViewRow struct {
	Label, Compute, Idle, Share string
	Exposed                     []string // per Axes
}

// rankTable is nil for a job with a pipeline.
func rankTable(r *result.Result) *rankView {
	if !report.NoPipeline(r) {
		return nil
	}
	tab := report.RankRows(r)
	v := &rankView{Unit: tab.Unit, Axes: tab.Axes, Omitted: tab.Omitted, Note: report.RankTableNote(tab)}
	rows := tab.Rows
	if len(r.Ranks) > 1 {
		rows = append(rows, report.MeanRankRow(r))
	}
	for _, row := range rows {
		vr := rankViewRow{Label: row.Label, Compute: vocab.Duration(row.ComputeNs), Idle: vocab.Duration(row.IdleNs), Share: vocab.Percent(row.IdleShare)}
		for _, ax := range tab.Axes {
			vr.Exposed = append(vr.Exposed, vocab.Duration(row.ExposedNs[ax]))
		}
		v.Rows = append(v.Rows, vr)
	}
	if len(r.Stages) == 1 && r.Stages[0].ForwardNs+r.Stages[0].BackwardNs > 0 {
		v.Passes = fmt.Sprintf("Passes, mean over the ranks: forward %s, backward %s per step.",
			vocab.Duration(r.Stages[0].ForwardNs), vocab.Duration(r.Stages[0].BackwardNs))
	}
	return v
}
