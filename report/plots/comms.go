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
	"gonum.org/v1/plot/vg/draw"
)

// outlierFactor marks a communicator whose time per byte exceeds its axis's
// median by this factor: a TP group on the network instead of NVLink.
const outlierFactor = 3

// CommFits draws, per axis, every collective's message size against its
// transfer time, log-log, with each communicator's fitted α + β·bytes line.
// Communicators much slower per byte than their axis are highlighted.
func CommFits(r *result.Result) (Figure, bool) {
	axes := commAxes(r.Comms)
	if len(axes) == 0 {
		return Figure{}, false
	}
	plots := make([][]*plot.Plot, 1)
	for _, axis := range axes {
		plots[0] = append(plots[0], axisFit(r.Comms, axis))
	}
	return Figure{
		Name: "comms", Title: "Message size vs time per communicator",
		Caption: "Each dot is one collective: message size against transfer time (after the last member arrived). " +
			"Lines are each communicator's fitted α + β·bytes. A red line is a communicator over " +
			fmt.Sprint(outlierFactor) + "× slower per byte than its axis's median, e.g. a TP group crossing the network.",
		Width: vg.Length(len(axes)) * 11 * vg.Centimeter, Height: 11 * vg.Centimeter,
		draw: func(c draw.Canvas) {
			cs := plot.Align(plots, draw.Tiles{Rows: 1, Cols: len(axes), PadX: vg.Millimeter * 4}, c)
			for i, p := range plots[0] {
				p.Draw(cs[0][i])
			}
		},
	}, true
}

// commAxes lists the axes that have at least one sample, in vocab.Axes order.
func commAxes(comms []result.CommStats) []string {
	var out []string
	for _, axis := range vocab.Axes {
		if slices.ContainsFunc(comms, func(c result.CommStats) bool { return c.Axis == axis && len(positive(c.Points)) > 0 }) {
			out = append(out, axis)
		}
	}
	return out
}

func positive(pts []result.SizeTime) plotter.XYs {
	var xy plotter.XYs
	for _, p := range pts {
		if p.Bytes > 0 && p.TimeNs > 0 {
			xy = append(xy, plotter.XY{X: float64(p.Bytes), Y: float64(p.TimeNs) / 1e3})
		}
	}
	return xy
}

func axisFit(comms []result.CommStats, axis string) *plot.Plot {
	p := newPlot(axis+" communicators", "message size", "time (µs)")
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker = byteTicks{}
	p.Y.Tick.Marker = logTicks{}
	p.Add(plotter.NewGrid())
	med := medianBeta(comms, axis)
	var all plotter.XYs
	for _, c := range comms {
		if c.Axis == axis {
			all = append(all, positive(c.Points)...)
		}
	}
	xlo, xhi, ylo, yhi := plotter.XYRange(all)
	widen(&p.X, xlo, xhi)
	widen(&p.Y, ylo, yhi)
	for _, c := range comms {
		if c.Axis == axis {
			addComm(p, c, c.BetaNsPerByte > outlierFactor*med && med > 0, axis, p.X.Min, p.X.Max)
		}
	}
	p.Legend.Top, p.Legend.Left = true, true
	return p
}

func addComm(p *plot.Plot, c result.CommStats, outlier bool, axis string, lo, hi float64) {
	xy := positive(c.Points)
	if len(xy) == 0 {
		return
	}
	col := palette.Color(vocab.ExposedCategory(axis))
	if sc, err := plotter.NewScatter(xy); err == nil {
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(1.6), Shape: draw.CircleGlyph{}}
		p.Add(sc)
	}
	line, err := plotter.NewLine(fitLine(c.AlphaNs, c.BetaNsPerByte, lo, hi))
	if err != nil {
		return
	}
	line.Color, line.Width = palette.Color(vocab.CatIdle), vg.Points(0.8)
	if outlier {
		line.Color, line.Width = palette.Color(vocab.CatBubble), vg.Points(1.6)
		p.Legend.Add(fmt.Sprintf("%s: %s, α %s", cmpName(c), vocab.Rate(1e9/c.BetaNsPerByte), vocab.Duration(int64(c.AlphaNs))), line)
	}
	p.Add(line)
	addInterHost(p, c, lo, hi)
}

// addInterHost draws the fits of the communicator's transfers that cross
// hosts, dashed, so that a group running over the network instead of
// NVLink shows as a second, steeper line.
func addInterHost(p *plot.Plot, c result.CommStats, lo, hi float64) {
	for _, l := range c.Links {
		if l.Link != "inter-host" || l.Count < 2 || l.BetaNsPerByte <= 0 {
			continue
		}
		line, err := plotter.NewLine(fitLine(l.AlphaNs, l.BetaNsPerByte, lo, hi))
		if err != nil {
			continue
		}
		line.Color, line.Width, line.Dashes = palette.Color(vocab.CatIdle), vg.Points(0.8), []vg.Length{vg.Points(3), vg.Points(2)}
		p.Add(line)
	}
}

func cmpName(c result.CommStats) string {
	if c.Name != "" {
		return c.Name
	}
	return c.ID
}

// fitLine is α + β·x over [lo, hi] bytes, in µs.
func fitLine(alphaNs, betaNsPerByte, lo, hi float64) plotter.XYs {
	var out plotter.XYs
	for i := range 9 {
		x := lo * pow(hi/lo, float64(i)/8)
		if y := (alphaNs + betaNsPerByte*x) / 1e3; y > 0 {
			out = append(out, plotter.XY{X: x, Y: y})
		}
	}
	return out
}

func medianBeta(comms []result.CommStats, axis string) float64 {
	var bs []float64
	for _, c := range comms {
		if c.Axis == axis && c.BetaNsPerByte > 0 {
			bs = append(bs, c.BetaNsPerByte)
		}
	}
	if len(bs) == 0 {
		return 0
	}
	slices.Sort(bs)
	return bs[len(bs)/2]
}
