package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/palette"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MaxTimelineRanks is the most ranks drawn as rows of their own; above it
// the timeline shows one representative rank per stage.
const MaxTimelineRanks = 32

// Timeline draws the classified step: one row per rank (or per stage on
// large jobs), bars coloured by category.
func Timeline(r *result.Result) (Figure, bool) {
	if r.Timeline == nil || len(r.Timeline.Rows) == 0 || r.Timeline.EndNs <= r.Timeline.StartNs {
		return Figure{}, false
	}
	rows, names := timelineRows(r.Timeline.Rows, r.Timeline.EndNs-r.Timeline.StartNs, !noPipeline(r))
	g := &gantt{rows: rows, start: r.Timeline.StartNs, end: r.Timeline.EndNs, path: timelinePath(r)}
	p := newPlot(fmt.Sprintf("Step %d on the aligned clock", r.Timeline.Iteration), "time since step start (ms)", "")
	p.Add(g)
	p.NominalY(names...)
	p.Y.Tick.Label.Font.Size = vg.Points(8)
	caption := "Each row is a rank (or one rank per stage), its bars the step classified: compute, communication " +
		"exposed (nothing computes under it) or overlapped (pale, under compute), memcpy, and the bubble: a pipeline " +
		"send/recv waiting for its neighbour (bubble: PP wait) or nothing running; PP exposed is the transfer itself."
	if noPipeline(r) {
		caption = fmt.Sprintf("Each row is a rank (the first %d when there are more), its bars the step classified: compute, communication "+
			"exposed (nothing computes under it) or overlapped (pale, under compute), memcpy, and idle: the GPU runs nothing.", MaxTimelineRanks)
	}
	return Figure{
		Name: "timeline", Title: "Timeline of one step",
		Caption: caption + pathCaption(g.path),
		Width:   26 * vg.Centimeter, Height: vg.Length(len(rows))*0.55*vg.Centimeter + 3.5*vg.Centimeter,
		draw: withLegendRight(p, categoryLegend(g.present()), 4.2*vg.Centimeter),
	}, true
}

// timelineRows orders rows by stage then rank, top first, and keeps one
// rank per stage when there are too many (without a pipeline, the first
// ranks).
func timelineRows(in []result.TimelineRow, span int64, pipeline bool) ([]result.TimelineRow, []string) {
	rows := slices.Clone(in)
	slices.SortFunc(rows, func(a, b result.TimelineRow) int {
		return cmp.Or(cmp.Compare(a.Stage, b.Stage), cmp.Compare(a.Rank, b.Rank))
	})
	switch {
	case len(rows) > MaxTimelineRanks && pipeline:
		rows = slices.CompactFunc(rows, func(a, b result.TimelineRow) bool { return a.Stage == b.Stage })
	case len(rows) > MaxTimelineRanks:
		rows = rows[:MaxTimelineRanks]
	}
	for i := range rows {
		rows[i].Segments = mergeRuns(rows[i].Segments, span/4000)
	}
	slices.Reverse(rows) // NominalY puts the first name at the bottom
	names := make([]string, len(rows))
	for i, row := range rows {
		names[i] = fmt.Sprintf("rank %d", row.Rank)
		if pipeline {
			names[i] = fmt.Sprintf("stage %d · %s", row.Stage, names[i])
		}
	}
	return rows, names
}

// gantt is a plot.Plotter of timeline rows.
type gantt struct {
	rows       []result.TimelineRow
	start, end int64
	text       text.Style // bar labels, set when drawing
	rowHeight  vg.Length
	path       []result.PathOp // the what-if critical path of this step, nil when none
}

func (g *gantt) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, float64(g.end-g.start) / 1e6, -0.5, float64(len(g.rows)) - 0.5
}

func (g *gantt) present() map[string]bool {
	m := map[string]bool{}
	for _, row := range g.rows {
		for _, s := range row.Segments {
			m[s.Category] = true
		}
	}
	return m
}

func (g *gantt) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	g.text = p.Y.Tick.Label
	g.text.Color, g.text.XAlign, g.text.YAlign = color.White, text.XCenter, text.YCenter
	g.text.Font.Size = vg.Points(6)
	g.rowHeight = trY(0.4) - trY(-0.4)
	for y, row := range g.rows {
		for _, s := range row.Segments {
			x0, x1 := trX(float64(s.StartNs-g.start)/1e6), trX(float64(s.EndNs-g.start)/1e6)
			y0, y1 := trY(float64(y)-0.4), trY(float64(y)+0.4)
			g.bar(c, s, x0, x1, y0, y1)
		}
	}
	g.drawPath(c, trX, trY)
}

// bar draws one segment; overlapped communication is drawn as compute on
// top and the pale axis colour below, since both run then.
func (g *gantt) bar(c draw.Canvas, s result.Segment, x0, x1, y0, y1 vg.Length) {
	if isOverlapped(s.Category) {
		mid := (y0 + y1) / 2
		fill(c, palette.Color(vocab.CatCompute), x0, x1, mid, y1)
		fill(c, palette.Color(s.Category), x0, x1, y0, mid)
		return
	}
	fill(c, palette.Color(s.Category), x0, x1, y0, y1)
	if s.Category == vocab.CatCompute && s.Phase != "" {
		g.label(c, s, x0, x1, (y0+y1)/2)
	}
}

// label writes "F3" or "B3" (phase, microbatch) in a compute bar wide
// enough to hold it, so the pipeline schedule can be read off the rows.
func (g *gantt) label(c draw.Canvas, s result.Segment, x0, x1, y vg.Length) {
	txt := strings.ToUpper(s.Phase[:1]) + strconv.Itoa(s.Micro)
	if g.text.Width(txt) > x1-x0-2 || g.text.Height(txt) > g.rowHeight {
		return
	}
	c.FillText(g.text, vg.Point{X: (x0 + x1) / 2, Y: y}, txt)
}

func isOverlapped(cat string) bool { return vocab.Overlapped(cat) }

func fill(c draw.Canvas, col interface{ RGBA() (r, g, b, a uint32) }, x0, x1, y0, y1 vg.Length) {
	if x1 <= x0 {
		return
	}
	c.FillPolygon(col, c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
}

// mergeRuns joins segments of the same category, phase and microbatch
// (kernel after kernel of one microbatch's compute) that are less than tol
// apart, a fraction of a pixel: one bar draws faster and shows no hairline
// seams. It changes the drawing only, never the Result.
func mergeRuns(in []result.Segment, tol int64) []result.Segment {
	out := make([]result.Segment, 0, len(in))
	for _, s := range in {
		if n := len(out); n > 0 {
			p := &out[n-1]
			if p.Category == s.Category && p.Phase == s.Phase && p.Micro == s.Micro && s.StartNs <= p.EndNs+tol {
				p.EndNs = max(p.EndNs, s.EndNs)
				continue
			}
		}
		out = append(out, s)
	}
	return out
}
