package plots

import (
	"fmt"
	"io"

	"github.com/tpptrace/tpptrace/analysis/result"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// DPI is the resolution of PNG output.
const DPI = 144

// Figure is one drawable figure of a Result.
type Figure struct {
	Name    string // file stem: "timeline"
	Title   string
	Caption string // one or two sentences on how to read it
	Width   vg.Length
	Height  vg.Length
	draw    func(draw.Canvas)
}

// Formats lists the output formats Render accepts.
var Formats = []string{"png", "svg"}

// All returns every figure the Result has data for, in report order.
func All(r *result.Result) []Figure {
	var figs []Figure
	for _, build := range []func(*result.Result) (Figure, bool){
		Timeline, StageBars, BubbleCurve, Heatmap, ArrivalSkew, CommFits,
	} {
		if f, ok := build(r); ok {
			figs = append(figs, f)
		}
	}
	return figs
}

// Render writes the figure as "png" or "svg". A drawing failure inside
// gonum/plot becomes an error naming the figure.
func (f Figure) Render(w io.Writer, format string) (err error) {
	if f.Width <= 0 || f.Height <= 0 {
		return fmt.Errorf("figure %s: empty size %v×%v", f.Name, f.Width, f.Height)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("figure %s: drawing failed: %v", f.Name, p)
		}
	}()
	var cv interface {
		vg.CanvasSizer
		io.WriterTo
	}
	switch format {
	case "png":
		cv = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(f.Width, f.Height), vgimg.UseDPI(DPI))}
	case "svg":
		cv = vgsvg.New(f.Width, f.Height)
	default:
		return fmt.Errorf("figure %s: unknown format %q (want png or svg)", f.Name, format)
	}
	f.draw(draw.New(cv))
	if _, err := cv.WriteTo(w); err != nil {
		return fmt.Errorf("figure %s: write %s: %w", f.Name, format, err)
	}
	return nil
}
