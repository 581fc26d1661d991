package plots

import (
	"image/color"

	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/palette"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// swatch is a legend thumbnail: a filled box.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(s.c, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}

// categoryLegend lists the categories present, in palette order.
func categoryLegend(present map[string]bool) plot.Legend {
	l := plot.NewLegend()
	for _, cat := range vocab.Categories {
		if present[cat] {
			l.Add(vocab.CategoryLabel(cat), swatch{palette.Color(cat)})
		}
	}
	return l
}

// withLegendRight draws p on the left and the legend in a strip of width
// w on the right, so the legend never covers data.
func withLegendRight(p *plot.Plot, l plot.Legend, w vg.Length) func(draw.Canvas) {
	return func(c draw.Canvas) {
		split := c.Max.X - w
		left, right := c, c
		left.Max.X, right.Min.X = split, split+vg.Points(6)
		p.Draw(left)
		l.Top, l.Left = true, true
		l.Draw(right)
	}
}

// newPlot returns a plot with a title and a light grid.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	p.Title.TextStyle.Font.Size = vg.Points(12)
	return p
}
