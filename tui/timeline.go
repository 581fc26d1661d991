package tui

import (
	"fmt"
	"sort"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/tui/events"
)

// timeline draws one step of every rank as lanes grouped by stage under a
// time axis; each cell shows the category that dominates it, exposed
// communication first. With the events of traces a cursor selects an
// event and the detail below shows it (and, for a collective, every
// member's arrival, wait and transfer).
type timeline struct {
	c          *Common
	w, h       int
	step       int   // index into steps()
	from, span int64 // visible window on the aligned clock
	row, top   int   // selected lane, first visible row (indexes into rows)
	ev         int   // selected event in the selected rank's lane, -1 none
	peer       int   // the member p jumped to last
	only       map[int]bool
	rows       []laneRow // lanes and stage headers of the step, filtered
	search     search
	styleCache map[styleKey]runStyle
	expanded   map[int]bool // ranks whose stream sub-lanes show
	expandAll  bool
	classCache map[int][]string
	filter     filter
	pressX     int  // where the left button went down, -1 when up
	path       bool // overlay the what-if critical path (critpath.go)
}

// laneRow is a stage header (rank -1), one rank's lane, or one of its
// stream sub-lanes (sub names the class).
type laneRow struct {
	rank, stage int
	segs        []result.Segment
	sub         string
}

// lane reports whether the row is a rank's (selectable) lane.
func (r laneRow) lane() bool { return r.rank >= 0 && r.sub == "" }

const labelWidth = 9

func newTimeline(c *Common) *timeline {
	t := &timeline{c: c, ev: -1, pressX: -1}
	steps := t.steps()
	for i, s := range steps {
		if c.Res.Timeline != nil && s != nil && s.Iteration == c.Res.Timeline.Iteration {
			t.step = i
		}
	}
	t.setStep(t.step)
	t.fit()
	return t
}

func (t *timeline) Title() string    { return "Timeline" }
func (t *timeline) SetSize(w, h int) { t.w, t.h = w, h; t.follow() }
func (t *timeline) HelpLine() string {
	return "j/k lane · h/l pan · +/- zoom · 0 fit · [/] step · H/L event · p peer · / search"
}

// steps are the classified steps: every step with the events of traces,
// else the Result's representative one.
func (t *timeline) steps() []*result.Timeline {
	if t.c.Data != nil && len(t.c.Data.Steps) > 0 {
		return t.c.Data.Steps
	}
	return []*result.Timeline{t.c.Res.Timeline}
}

func (t *timeline) cur() *result.Timeline { return t.steps()[t.step] }

// setStep shows step i, keeping the window's place in the step.
func (t *timeline) setStep(i int) {
	steps := t.steps()
	i = min(max(i, 0), len(steps)-1)
	rel := int64(0)
	if old := t.cur(); old != nil {
		rel = t.from - old.StartNs
	}
	t.step = i
	tl := t.cur()
	if tl == nil {
		return
	}
	t.from = tl.StartNs + rel
	rank := t.rank()
	t.rows = t.withSubRows(groupRows(tl, t.only))
	t.row = t.rowOf(rank)
	t.clamp()
	t.ev = t.nearest()
}

// groupRows orders the lanes by stage then rank, a header before each stage.
func groupRows(tl *result.Timeline, only map[int]bool) []laneRow {
	lanes := make([]laneRow, 0, len(tl.Rows))
	for _, r := range tl.Rows {
		if only == nil || only[r.Rank] {
			lanes = append(lanes, laneRow{rank: r.Rank, stage: r.Stage, segs: r.Segments})
		}
	}
	sort.SliceStable(lanes, func(i, j int) bool {
		return lanes[i].stage < lanes[j].stage || lanes[i].stage == lanes[j].stage && lanes[i].rank < lanes[j].rank
	})
	var out []laneRow
	for i, l := range lanes {
		if i == 0 || l.stage != lanes[i-1].stage {
			out = append(out, laneRow{rank: -1, stage: l.stage})
		}
		out = append(out, l)
	}
	return out
}

// withSubRows adds the sub-lanes of expanded ranks after their lanes.
func (t *timeline) withSubRows(rows []laneRow) []laneRow {
	if t.c.Data == nil || (!t.expandAll && len(t.expanded) == 0 && t.filter.class == "") {
		return rows
	}
	out := make([]laneRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, r)
		if r.lane() {
			out = append(out, t.subRows(r)...)
		}
	}
	return out
}

// rank is the selected lane's rank (-1 when none).
func (t *timeline) rank() int {
	if t.row < 0 || t.row >= len(t.rows) {
		return -1
	}
	return t.rows[t.row].rank
}

// rowOf is rank's row, else the first lane.
func (t *timeline) rowOf(rank int) int {
	first := -1
	for i, r := range t.rows {
		if r.lane() && r.rank == rank {
			return i
		}
		if first < 0 && r.lane() {
			first = i
		}
	}
	return max(first, 0)
}

// lane is the selected rank's events, nil without them.
func (t *timeline) lane() *events.Lane {
	if t.c.Data == nil {
		return nil
	}
	return t.c.Data.Lane(t.rank())
}

func (t *timeline) Update(msg tea.Msg) (Component, tea.Cmd) {
	if t.cur() == nil {
		return t, nil
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if t.search.editing {
			t.editSearch(msg)
			return t, nil
		}
		if t.filter.editing {
			t.editFilter(msg)
			return t, nil
		}
		t.key(msg)
	case tea.MouseWheelMsg:
		t.wheel(tea.Mouse(msg))
	case tea.MouseClickMsg:
		t.click(tea.Mouse(msg))
	case tea.MouseReleaseMsg:
		t.release(tea.Mouse(msg))
	case JumpMsg:
		t.jump(msg)
	case SelectRankMsg:
		t.selectRank(msg.Rank)
	}
	return t, nil
}

func (t *timeline) key(k tea.KeyPressMsg) {
	keys := t.c.Keys
	switch {
	case key.Matches(k, keys.Down):
		t.moveRow(1)
	case key.Matches(k, keys.Up):
		t.moveRow(-1)
	case key.Matches(k, keys.ZoomIn):
		t.zoomAt(t.from+t.span/2, 0.5)
	case key.Matches(k, keys.ZoomOut):
		t.zoomAt(t.from+t.span/2, 2)
	case key.Matches(k, keys.Left):
		t.pan(-t.span / 4)
	case key.Matches(k, keys.Right):
		t.pan(t.span / 4)
	case key.Matches(k, keys.Fit):
		t.fit()
	case key.Matches(k, keys.StepPrev):
		t.setStep(t.step - 1)
	case key.Matches(k, keys.StepNext):
		t.setStep(t.step + 1)
	default:
		t.eventKey(k)
	}
}

func (t *timeline) eventKey(k tea.KeyPressMsg) {
	keys := t.c.Keys
	switch {
	case key.Matches(k, keys.EventNext):
		t.moveEvent(1)
	case key.Matches(k, keys.EventPrev):
		t.moveEvent(-1)
	case key.Matches(k, keys.ZoomEvent):
		t.zoomEvent()
	case key.Matches(k, keys.Peer):
		t.nextPeer()
	case key.Matches(k, keys.Search):
		t.search = search{editing: true}
	case key.Matches(k, keys.SearchNext):
		t.nextMatch(1)
	case key.Matches(k, keys.SearchPrev):
		t.nextMatch(-1)
	case key.Matches(k, keys.Expand):
		t.toggle(false)
	case key.Matches(k, keys.ExpandAll):
		t.toggle(true)
	case key.Matches(k, keys.Filter):
		t.filter = filter{editing: true, class: t.filter.class}
	case key.Matches(k, keys.CritPath):
		t.path = !t.path
	case key.Matches(k, keys.Clear):
		t.search, t.only, t.filter = search{}, nil, filter{}
		t.setStep(t.step)
	}
}

// moveRow moves the selection d lanes, skipping stage headers.
func (t *timeline) moveRow(d int) {
	for i := t.row + d; i >= 0 && i < len(t.rows); i += d {
		if t.rows[i].lane() {
			t.row = i
			break
		}
	}
	t.ev = t.nearest()
	t.follow()
}

func (t *timeline) fit() {
	if tl := t.cur(); tl != nil {
		t.from, t.span = tl.StartNs, max(tl.EndNs-tl.StartNs, 1)
	}
}

// zoomAt scales the window by f around instant at.
func (t *timeline) zoomAt(at int64, f float64) {
	span := min(max(int64(float64(t.span)*f), 1000), 4*t.stepLen())
	t.from = at - int64(float64(at-t.from)*float64(span)/float64(t.span))
	t.span = span
	t.clamp()
}

func (t *timeline) pan(d int64) { t.from += d; t.clamp() }

func (t *timeline) stepLen() int64 {
	tl := t.cur()
	return max(tl.EndNs-tl.StartNs, 1)
}

// clamp keeps the window over the step (with a margin of one window).
func (t *timeline) clamp() {
	tl := t.cur()
	if tl == nil {
		return
	}
	t.span = max(t.span, 1)
	t.from = min(max(t.from, tl.StartNs-t.span/2), tl.EndNs-t.span/2)
}

// follow scrolls the lanes so that the selected row is visible.
func (t *timeline) follow() {
	n := t.laneRows()
	if t.row < t.top {
		t.top = t.row
	}
	if t.row >= t.top+n {
		t.top = t.row - n + 1
	}
	if t.top > 0 && t.rows[t.top-1].rank < 0 && t.row-t.top+1 < n { // show the stage header above
		t.top--
	}
	t.top = max(t.top, 0)
}

// laneRows and detailRows share the pane: header, two axis lines and the
// legend take four lines.
func (t *timeline) detailRows() int { return min(max((t.h-4)/3, 2), 9) }
func (t *timeline) laneRows() int   { return max(t.h-4-t.detailRows(), 1) }
func (t *timeline) cells() int      { return max(t.w-labelWidth, 10) }

func (t *timeline) View() string {
	tl := t.cur()
	if tl == nil || len(tl.Rows) == 0 {
		return "no timeline in this result"
	}
	lines := []string{t.headLine(tl)}
	lines = append(lines, t.axis()...)
	lines = append(lines, t.laneLines()...)
	lines = append(lines, legend(t.c))
	lines = append(lines, t.detail()...)
	return clip(lines, t.w, t.h)
}

func (t *timeline) headLine(tl *result.Timeline) string {
	s := fmt.Sprintf("step %d (%d/%d, %s) · showing %s … %s (%s)", tl.Iteration, t.step+1, len(t.steps()),
		vocab.Duration(tl.EndNs-tl.StartNs), vocab.Duration(t.from-tl.StartNs), vocab.Duration(t.from+t.span-tl.StartNs), vocab.Duration(t.span))
	if t.only != nil {
		s += fmt.Sprintf(" · %d of %d ranks (esc: all)", len(t.only), len(tl.Rows))
	}
	return s + t.search.status() + t.filter.status() + t.pathStatus()
}
