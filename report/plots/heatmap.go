package plots

import (
	"fmt"
	"math"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// grid is rank × step compute time, in ms; NaN where a cell is missing.
type grid struct {
	ranks, iters []int
	z            [][]float64 // [rank][iteration]
}

func (g *grid) Dims() (c, r int)   { return len(g.iters), len(g.ranks) }
func (g *grid) Z(c, r int) float64 { return g.z[r][c] }
func (g *grid) X(c int) float64    { return float64(c) }
func (g *grid) Y(r int) float64    { return float64(r) }

func newGrid(steps []result.RankStep) *grid {
	g := &grid{}
	for _, s := range steps {
		g.ranks, g.iters = append(g.ranks, s.Rank), append(g.iters, s.Iteration)
	}
	slices.Sort(g.ranks)
	slices.Sort(g.iters)
	g.ranks, g.iters = slices.Compact(g.ranks), slices.Compact(g.iters)
	g.z = make([][]float64, len(g.ranks))
	for i := range g.z {
		g.z[i] = slices.Repeat([]float64{math.NaN()}, len(g.iters))
	}
	for _, s := range steps {
		r, _ := slices.BinarySearch(g.ranks, s.Rank)
		c, _ := slices.BinarySearch(g.iters, s.Iteration)
		g.z[r][c] = float64(s.ComputeNs) / 1e6
	}
	return g
}

func (g *grid) bounds() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range g.z {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

// Heatmap draws compute time per rank and step; a straggler is a bright
// row, a bad step a bright column.
func Heatmap(r *result.Result) (Figure, bool) {
	if len(r.RankSteps) == 0 {
		return Figure{}, false
	}
	g := newGrid(r.RankSteps)
	lo, hi := g.bounds()
	cm := moreland.ExtendedBlackBody()
	cm.SetMin(lo)
	cm.SetMax(hi)
	h := plotter.NewHeatMap(g, cm.Palette(255))
	h.Min, h.Max = lo, hi
	h.NaN = plotter.DefaultLineStyle.Color
	p := newPlot("Compute time per rank and step (ms)", "step", "rank")
	p.Add(h)
	p.NominalX(labels(g.iters, 1)...)
	p.NominalY(labels(g.ranks, max(1, len(g.ranks)/32))...)
	cb := plot.New()
	cb.HideX()
	cb.Y.Label.Text = "ms"
	cb.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	return Figure{
		Name: "heatmap", Title: "Rank × step heatmap",
		Caption: "Compute time of every rank in every analysed step. A rank slower than its peers is a bright row; a slow step is a bright column.",
		Width:   18 * vg.Centimeter, Height: vg.Length(min(len(g.ranks), 64))*0.25*vg.Centimeter + 5*vg.Centimeter,
		draw: beside(p, cb, 2.4*vg.Centimeter),
	}, true
}

// labels names every step-th value, leaving the others blank.
func labels(vals []int, step int) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		if i%step == 0 {
			out[i] = fmt.Sprint(v)
		}
	}
	return out
}

// beside draws p, and q in a strip of width w on the right.
func beside(p, q *plot.Plot, w vg.Length) func(draw.Canvas) {
	return func(c draw.Canvas) {
		left, right := c, c
		left.Max.X, right.Min.X = c.Max.X-w, c.Max.X-w
		p.Draw(left)
		q.Draw(right)
	}
}
