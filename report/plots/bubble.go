package plots

import (
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/palette"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// idealBubble is (p−1)/(v·m+p−1), the bubble fraction of a balanced
// pipeline with free transfers (semantics.md).
func idealBubble(p, v int, m float64) float64 {
	return float64(p-1) / (float64(max(v, 1))*m + float64(p-1))
}

// BubbleCurve draws the ideal bubble fraction over the number of
// microbatches for this job's pipeline depth, with each stage's measured
// bubble at this job's microbatch count.
func BubbleCurve(r *result.Result) (Figure, bool) {
	pp, m := r.Layout.PP, r.Microbatches
	if pp < 2 || m < 1 || len(r.Stages) == 0 {
		return Figure{}, false
	}
	p := newPlot(fmt.Sprintf("Bubble vs microbatches, p = %d", pp), "microbatches per step (m)", "bubble fraction of the step")
	top := max(4*m, 32)
	curve := make(plotter.XYs, 0, top)
	for x := 1; x <= top; x++ {
		curve = append(curve, plotter.XY{X: float64(x), Y: idealBubble(pp, r.VirtualStages, float64(x))})
	}
	line, err := plotter.NewLine(curve)
	if err != nil {
		return Figure{}, false
	}
	line.Color, line.Width = palette.Color(vocab.CatCompute), vg.Points(1.5)
	p.Add(line, plotter.NewGrid())
	l := plot.NewLegend()
	l.Add(idealLabel(pp, r.VirtualStages), line)
	addMeasured(p, &l, r, m)
	p.Y.Min, p.X.Min = 0, 0
	return Figure{
		Name: "bubble", Title: "Measured bubble against the ideal",
		Caption: "The curve is the ideal bubble (p−1)/(m+p−1) of a balanced pipeline with free transfers; the dots are " +
			"each stage's measured bubble at this job's m. Dots far above the curve mean imbalance or slow transfers; " +
			"moving right along the curve (more microbatches) shrinks the bubble.",
		Width: 18 * vg.Centimeter, Height: 11 * vg.Centimeter, draw: withLegendRight(p, l, 5.2*vg.Centimeter),
	}, true
}

func idealLabel(p, v int) string {
	if v > 1 {
		return fmt.Sprintf("ideal (p−1)/(%dm+p−1)", v)
	}
	return "ideal (p−1)/(m+p−1)"
}

func addMeasured(p *plot.Plot, l *plot.Legend, r *result.Result, m int) {
	pts := make(plotter.XYs, len(r.Stages))
	for i, s := range r.Stages {
		pts[i] = plotter.XY{X: float64(m), Y: s.BubbleFraction}
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: palette.Color(vocab.CatBubble), Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
	p.Add(sc)
	l.Add(fmt.Sprintf("measured, %d stages", len(r.Stages)), sc)
	ideal, err := plotter.NewScatter(plotter.XYs{{X: float64(m), Y: idealBubble(r.Layout.PP, r.VirtualStages, float64(m))}})
	if err != nil {
		return
	}
	ideal.GlyphStyle = draw.GlyphStyle{Color: palette.Color(vocab.CatCompute), Radius: vg.Points(5), Shape: draw.RingGlyph{}}
	p.Add(ideal)
	l.Add(fmt.Sprintf("ideal at m = %d", m), ideal)
}
