package plots

import (
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// noPipeline reports whether the job has no pipeline (PP = 1, at most one
// stage): its figures speak of ranks, not stages or a bubble.
func noPipeline(r *result.Result) bool { return r.Layout.PP <= 1 && len(r.Stages) <= 1 }

// rankAxes are the axes whose exposed time the rank bars stack, bottom up.
var rankAxes = []string{"TP", "DP", "CP", "EP", "A2A", "other"}

// RankBars draws, for a job without a pipeline, one stacked bar per rank
// (up to MaxTimelineRanks, the first ones): compute, the exposed
// communication of each axis and the idle GPU, in ms per step.
func RankBars(r *result.Result) (Figure, bool) {
	ranks := r.Ranks[:min(len(r.Ranks), MaxTimelineRanks)]
	if len(ranks) == 0 {
		return Figure{}, false
	}
	layers := []stack{{vocab.CatCompute, nil}}
	for _, ax := range rankAxes {
		layers = append(layers, stack{vocab.ExposedCategory(ax), nil})
	}
	layers = append(layers, stack{vocab.CatIdle, nil})
	p := newPlot("Where each rank's step goes", "", "ms per step")
	l := stackBars(p, layers, len(ranks), func(st stack) plotter.Values { return rankValues(ranks, st.cat) })
	names := make([]string, len(ranks))
	for i, rk := range ranks {
		names[i] = fmt.Sprintf("rank %d", rk.Rank)
	}
	p.NominalX(names...)
	return Figure{
		Name: "ranks", Title: "Per-rank breakdown",
		Caption: "Each rank's step, per step: compute, communication with no compute under it (exposed, per axis) and " +
			"the idle GPU (no kernel, no copy). A rank with a taller idle or exposed part than its peers waits for them, or they for it.",
		Width: 18 * vg.Centimeter, Height: 11 * vg.Centimeter, draw: withLegendRight(p, l, 4.2*vg.Centimeter),
	}, true
}

// rankValues is each rank's figure of category cat, in ms.
func rankValues(ranks []result.RankStats, cat string) plotter.Values {
	vals := make(plotter.Values, len(ranks))
	for i, rk := range ranks {
		var ns int64
		switch cat {
		case vocab.CatCompute:
			ns = rk.ComputeNs
		case vocab.CatIdle:
			ns = rk.IdleNs
		default:
			ns = rk.ExposedNs[vocab.CategoryAxis(cat)]
		}
		vals[i] = float64(ns) / 1e6
	}
	return vals
}
