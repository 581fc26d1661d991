package plots

import (
	"image/color"

	"github.com/tpptrace/tpptrace/analysis/result"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// timelinePath is the what-if critical path when it is of the timeline's step.
func timelinePath(r *result.Result) []result.PathOp {
	if r.WhatIf == nil || r.Timeline == nil || r.WhatIf.CriticalPathStep != r.Timeline.Iteration {
		return nil
	}
	return r.WhatIf.CriticalPathOps
}

func pathCaption(path []result.PathOp) string {
	if len(path) == 0 {
		return ""
	}
	return " The black line is the critical path the what-if replay found: the chain of ops, across ranks, whose delay moves the step's end."
}

// drawPath strokes the critical path over the bars: along each op on its
// rank's row, and from one op's end to the next op's start across rows.
// Ranks without a row of their own are skipped.
func (g *gantt) drawPath(c draw.Canvas, trX, trY func(float64) vg.Length) {
	if len(g.path) == 0 {
		return
	}
	row := map[int]int{}
	for y, r := range g.rows {
		row[r.Rank] = y
	}
	style := draw.LineStyle{Color: color.Black, Width: vg.Points(1.2)}
	var pts []vg.Point
	flush := func() {
		if len(pts) > 1 {
			c.StrokeLines(style, c.ClipLinesXY(pts)...)
		}
		pts = pts[:0]
	}
	for _, op := range g.path {
		y, ok := row[op.Rank]
		if !ok {
			flush()
			continue
		}
		yy := trY(float64(y) + 0.3)
		pts = append(pts, vg.Point{X: trX(float64(op.StartNs-g.start) / 1e6), Y: yy},
			vg.Point{X: trX(float64(op.EndNs-g.start) / 1e6), Y: yy})
	}
	flush()
}
