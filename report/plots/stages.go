package plots

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/palette"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// stack is one layer of the per-stage bars.
type stack struct {
	cat   string
	value func(result.StageStats) int64
}

func exposed(axis string) stack {
	return stack{vocab.ExposedCategory(axis), func(s result.StageStats) int64 { return s.ExposedNs[axis] }}
}

// stageStacks are the layers of a stage's bar, bottom up: compute, exposed
// communication of the axes that are not pipeline, then the bubble split
// as the findings split it: the PP transfer (exposed PP), the PP
// send/recv waiting for its neighbour and the rest (idle, copies). The
// exposed PP time outside those is not drawn: it is mostly the wait.
var stageStacks = []stack{
	{vocab.CatCompute, func(s result.StageStats) int64 { return s.ComputeNs }},
	exposed("TP"), exposed("DP"), exposed("CP"), exposed("EP"), exposed("A2A"),
	{vocab.CatPPExposed, func(s result.StageStats) int64 { return s.BubblePPTransferNs }},
	{vocab.CatPPWait, func(s result.StageStats) int64 { return s.BubblePPWaitNs }},
	{vocab.CatBubble, func(s result.StageStats) int64 {
		return max(s.BubbleNs-s.BubblePPWaitNs-s.BubblePPTransferNs, 0)
	}},
}

// StageBars draws per-stage stacked bars of compute, exposed communication
// per axis and bubble, in ms per step; for a job without a pipeline, the
// rank bars instead.
func StageBars(r *result.Result) (Figure, bool) {
	if noPipeline(r) {
		return RankBars(r)
	}
	if len(r.Stages) == 0 {
		return Figure{}, false
	}
	p := newPlot("Where each stage's step goes", "", "ms per step")
	l := stackBars(p, stageStacks, len(r.Stages), func(st stack) plotter.Values {
		vals, _ := stageValues(r.Stages, st)
		return vals
	})
	p.NominalX(stageNames(r)...)
	return Figure{
		Name: "stages", Title: "Per-stage breakdown",
		Caption: "Mean over each stage's ranks of compute, exposed TP/DP communication and the bubble (time with only " +
			"pipeline send/recv, copies or nothing running), per step. The bubble is split into its PP transfer (PP exposed), " +
			"send/recv waiting for the neighbour (bubble: PP wait) and the rest. The tallest compute bar is the bottleneck stage.",
		Width: 18 * vg.Centimeter, Height: 11 * vg.Centimeter, draw: withLegendRight(p, l, 4.2*vg.Centimeter),
	}, true
}

func stageValues(stages []result.StageStats, st stack) (plotter.Values, bool) {
	vals := make(plotter.Values, len(stages))
	any := false
	for i, s := range stages {
		vals[i] = float64(st.value(s)) / 1e6
		any = any || vals[i] > 0
	}
	return vals, any
}

func barWidth(n int) vg.Length { return vg.Length(min(40, 360/max(n, 1))) }

func stageNames(r *result.Result) []string {
	names := make([]string, len(r.Stages))
	for i, s := range r.Stages {
		names[i] = fmt.Sprintf("stage %d", s.Stage)
		if s.Stage == r.BottleneckStage {
			names[i] += " (bottleneck)"
		}
	}
	return names
}

// stackBars stacks one bar chart per layer of n bars onto p, bottom up,
// leaving out layers that are all zero, and returns their legend.
func stackBars(p *plot.Plot, layers []stack, n int, values func(stack) plotter.Values) plot.Legend {
	l := plot.NewLegend()
	var prev *plotter.BarChart
	for _, st := range layers {
		vals := values(st)
		if !slices.ContainsFunc(vals, func(v float64) bool { return v > 0 }) {
			continue
		}
		b, err := plotter.NewBarChart(vals, barWidth(n))
		if err != nil {
			continue
		}
		b.Color, b.LineStyle.Width = palette.Color(st.cat), 0
		if prev != nil {
			b.StackOn(prev)
		}
		p.Add(b)
		l.Add(vocab.CategoryLabel(st.cat), swatch{palette.Color(st.cat)})
		prev = b
	}
	return l
}
