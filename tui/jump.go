package tui

import tea "charm.land/bubbletea/v2"

// Other panes send the timeline there: a finding (its ranks and the
// category carrying its cost) or a rank of the Ranks pane.

// JumpMsg asks the timeline to show ranks (empty: all) around a category
// of the representative step: the finding's evidence.
type JumpMsg struct {
	Ranks    []int
	Category string // the segments to frame, "" for the whole step
	Title    string
}

// JumpCmd returns a command that sends a JumpMsg; it captures its inputs.
func JumpCmd(ranks []int, category, title string) tea.Cmd {
	return func() tea.Msg { return JumpMsg{Ranks: ranks, Category: category, Title: title} }
}

// SelectRankMsg asks the timeline to select a rank's lane.
type SelectRankMsg struct{ Rank int }

// SelectRankCmd returns a command that sends a SelectRankMsg.
func SelectRankCmd(rank int) tea.Cmd { return func() tea.Msg { return SelectRankMsg{rank} } }

// selectRank selects rank's lane, showing it when the filter hid it.
func (t *timeline) selectRank(rank int) {
	if t.only != nil && !t.only[rank] {
		t.only[rank] = true
		t.setStep(t.step)
	}
	t.row = t.rowOf(rank)
	t.ev = t.nearest()
	t.follow()
}

func (t *timeline) jump(m JumpMsg) {
	t.only = nil
	if len(m.Ranks) > 0 {
		t.only = map[int]bool{}
		for _, r := range m.Ranks {
			t.only[r] = true
		}
	}
	for i, s := range t.steps() {
		if s != nil && t.c.Res.Timeline != nil && s.Iteration == t.c.Res.Timeline.Iteration {
			t.step = i
		}
	}
	t.setStep(t.step)
	t.row = t.rowOf(-1)
	t.fit()
	if a, b, ok := t.frame(m.Category); ok {
		t.from, t.span = a-(b-a)/2, max(2*(b-a), 1000)
		t.clamp()
	}
	t.ev = t.nearest()
	t.top = 0
	t.follow()
}

// frame is the longest run of category on the selected lane.
func (t *timeline) frame(cat string) (int64, int64, bool) {
	var a, b int64
	if t.row >= len(t.rows) || cat == "" {
		return 0, 0, false
	}
	for _, s := range t.rows[t.row].segs {
		if s.Category == cat && s.EndNs-s.StartNs > b-a {
			a, b = s.StartNs, s.EndNs
		}
	}
	return a, b, b > a
}
