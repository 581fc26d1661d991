package tui

import (
	tea "charm.land/bubbletea/v2"
)

// The model hands the panes mouse messages with Y counted from the pane's
// first line. On the timeline the wheel zooms at the pointer, shift+wheel
// (or a horizontal wheel) pans, a click selects the lane and the event
// under the pointer, and a drag along the lanes zooms to the range dragged.

// headRows are the timeline's lines above the lanes: header and axis.
const headRows = 3

func (t *timeline) instant(x int) int64 {
	return t.from + int64(float64(x-labelWidth)*float64(t.span)/float64(t.cells()))
}

func (t *timeline) wheel(m tea.Mouse) {
	pan := m.Mod&tea.ModShift != 0
	switch {
	case m.Button == tea.MouseWheelLeft || pan && m.Button == tea.MouseWheelUp:
		t.pan(-t.span / 8)
	case m.Button == tea.MouseWheelRight || pan && m.Button == tea.MouseWheelDown:
		t.pan(t.span / 8)
	case m.Button == tea.MouseWheelUp:
		t.zoomAt(t.instant(max(m.X, labelWidth)), 0.5)
	case m.Button == tea.MouseWheelDown:
		t.zoomAt(t.instant(max(m.X, labelWidth)), 2)
	}
}

func (t *timeline) click(m tea.Mouse) {
	t.pressX = -1
	if m.Button == tea.MouseLeft && m.X >= labelWidth {
		t.pressX = m.X
	}
	row := t.top + m.Y - headRows
	if m.Button != tea.MouseLeft || m.Y < headRows || row >= len(t.rows) || row >= t.top+t.laneRows() || t.rows[row].rank < 0 {
		return
	}
	t.row = t.rowOf(t.rows[row].rank)
	t.ev = t.eventAt(t.instant(m.X))
}

// eventAt is the selected lane's event running at ns, else the nearest.
func (t *timeline) eventAt(ns int64) int {
	lane := t.lane()
	if lane == nil {
		return -1
	}
	lo, hi := lane.Window(ns, ns+1)
	best := -1
	for i := lo; i < hi; i++ {
		if lane.Start[i] <= ns && ns < lane.Start[i]+lane.Dur[i] && (best < 0 || lane.Dur[i] < lane.Dur[best]) {
			best = i
		}
	}
	if best < 0 {
		mid := t.from
		t.from = ns - t.span/2
		best = t.nearest()
		t.from = mid
	}
	return best
}

// release ends a drag: a range of two cells or more becomes the window.
func (t *timeline) release(m tea.Mouse) {
	x0 := t.pressX
	t.pressX = -1
	if x0 < 0 || m.X < labelWidth || max(m.X-x0, x0-m.X) < 2 {
		return
	}
	a, b := t.instant(min(x0, m.X)), t.instant(max(x0, m.X)+1)
	t.from, t.span = a, max(b-a, 1000)
	t.clamp()
}
