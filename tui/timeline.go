package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/palette"
	"github.com/tpptrace/tpptrace/report/units"
)

// timeline draws one step of every rank, one character per time bucket,
// coloured by the category that fills most of the bucket.
type timeline struct {
	c        *Common
	w, h     int
	row, top int     // selected row, first visible row
	zoom     int     // 1 = whole step; each step doubles
	center   float64 // 0..1 position of the view's centre in the step
}

const labelWidth = 12

func newTimeline(c *Common) *timeline { return &timeline{c: c, zoom: 1, center: 0.5} }

func (t *timeline) Title() string    { return "Timeline" }
func (t *timeline) SetSize(w, h int) { t.w, t.h = w, h }
func (t *timeline) HelpLine() string { return "j/k rank · h/l pan · +/- zoom" }

func (t *timeline) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || t.c.Res.Timeline == nil {
		return t, nil
	}
	keys, n := t.c.Keys, len(t.c.Res.Timeline.Rows)
	switch {
	case key.Matches(k, keys.Down):
		t.row = min(t.row+1, n-1)
	case key.Matches(k, keys.Up):
		t.row = max(t.row-1, 0)
	case key.Matches(k, keys.ZoomIn):
		t.zoom = min(t.zoom*2, 64)
	case key.Matches(k, keys.ZoomOut):
		t.zoom = max(t.zoom/2, 1)
	case key.Matches(k, keys.Left):
		t.center -= 0.25 / float64(t.zoom)
	case key.Matches(k, keys.Right):
		t.center += 0.25 / float64(t.zoom)
	}
	t.clampView()
	return t, nil
}

func (t *timeline) clampView() {
	half := 0.5 / float64(t.zoom)
	t.center = min(max(t.center, half), 1-half)
	visible := max(t.h-4, 1)
	if t.row < t.top {
		t.top = t.row
	}
	if t.row >= t.top+visible {
		t.top = t.row - visible + 1
	}
}

// window is the visible time range.
func (t *timeline) window(tl *result.Timeline) (int64, int64) {
	span := float64(tl.EndNs - tl.StartNs)
	from := tl.StartNs + int64(span*(t.center-0.5/float64(t.zoom)))
	return from, from + int64(span/float64(t.zoom))
}

func (t *timeline) View() string {
	tl := t.c.Res.Timeline
	if tl == nil || len(tl.Rows) == 0 {
		return "no timeline in this result"
	}
	from, to := t.window(tl)
	cells := max(t.w-labelWidth, 10)
	lines := []string{fmt.Sprintf("step %d (%s; mean step %s) · showing %s … %s · zoom ×%d", tl.Iteration,
		units.Duration(tl.EndNs-tl.StartNs), units.Duration(t.c.Res.StepNs),
		units.Duration(from-tl.StartNs), units.Duration(to-tl.StartNs), t.zoom)}
	visible := max(t.h-4, 1)
	for i := t.top; i < len(tl.Rows) && i < t.top+visible; i++ {
		lines = append(lines, t.rowLine(tl.Rows[i], i == t.row, from, to, cells))
	}
	lines = append(lines, legend(t.c), t.rankLine(tl.Rows[t.row].Rank))
	return clip(lines, t.w, t.h)
}

func (t *timeline) rowLine(r result.TimelineRow, selected bool, from, to int64, cells int) string {
	label := fmt.Sprintf("r%-3d s%-2d", r.Rank, r.Stage)
	if selected {
		label = t.c.Styles.Selected.Render(label)
	}
	cats := bucket(r.Segments, from, to, cells)
	var b strings.Builder
	for _, c := range cats {
		b.WriteString(t.c.Styles.Category[c].Render(string(glyphs[c])))
	}
	return label + "   " + b.String()
}

// bucket returns, for each of n cells of [from, to), the category covering
// most of the cell ("idle" when nothing does).
func bucket(segs []result.Segment, from, to int64, n int) []string {
	cover := make([]map[string]int64, n)
	width := float64(to-from) / float64(n)
	for _, s := range segs {
		a, b := max(s.StartNs, from), min(s.EndNs, to)
		for a < b {
			i := min(int(float64(a-from)/width), n-1)
			end := min(b, from+int64(float64(i+1)*width)+1)
			if cover[i] == nil {
				cover[i] = map[string]int64{}
			}
			cover[i][s.Category] += end - a
			a = end
		}
	}
	out := make([]string, n)
	for i, m := range cover {
		out[i] = dominant(m)
	}
	return out
}

func dominant(m map[string]int64) string {
	best, bestNs := palette.Idle, int64(0)
	for _, c := range palette.Categories {
		if m[c] > bestNs {
			best, bestNs = c, m[c]
		}
	}
	return best
}

func legend(c *Common) string {
	var parts []string
	cats := []string{palette.Compute, palette.TPExposed, palette.TP, palette.PPExposed, palette.PP, palette.DPExposed, palette.DP}
	if noPipeline(c.Res) {
		cats = []string{palette.Compute, palette.TPExposed, palette.TP, palette.DPExposed, palette.DP, palette.A2AExposed, palette.A2A}
	}
	for _, cat := range cats {
		parts = append(parts, c.Styles.Category[cat].Render(string(glyphs[cat]))+" "+cat)
	}
	if noPipeline(c.Res) {
		return strings.Join(append(parts, "' ' idle"), "  ")
	}
	parts = append(parts, c.Styles.Category[palette.PPWait].Render(string(glyphs[palette.PPWait]))+
		c.Styles.Category[palette.Bubble].Render(string(glyphs[palette.Bubble]))+" bubble (PP wait, idle)")
	return strings.Join(parts, "  ")
}

func (t *timeline) rankLine(rank int) string {
	for _, r := range t.c.Res.Ranks {
		if r.Rank == rank && noPipeline(t.c.Res) {
			return noPipelineRankLine(r, rankAxes(t.c.Res))
		}
		if r.Rank == rank {
			return fmt.Sprintf("rank %d (pp%d dp%d tp%d, %s GPU %d): compute %s · bubble %s %s (PP wait %s) · exposed TP %s PP xfer %s DP %s",
				r.Rank, r.PP, r.DP, r.TP, units.Safe(r.Host), r.LocalGPU, units.Duration(r.ComputeNs), units.Duration(r.BubbleNs),
				units.Percent(r.BubbleFraction), units.Duration(r.BubblePPWaitNs),
				units.Duration(r.ExposedNs["TP"]), units.Duration(r.BubblePPTransferNs), units.Duration(r.ExposedNs["DP"]))
		}
	}
	return ""
}
