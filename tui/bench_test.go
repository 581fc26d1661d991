package tui

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/tui/events"
)

// scaled is the analysed default job copied n times side by side: 16·n
// ranks, each copy's ranks renumbered, the same events and segments.
func scaled(n int) (*result.Result, *events.Data) {
	res, data := analysed()
	world := len(data.Lanes)
	big := *res
	big.WorldSize = world * n
	out := &events.Data{Names: data.Names, Streams: data.Streams, Colls: data.Colls}
	for _, tl := range data.Steps {
		c := *tl
		c.Rows = nil
		for k := range n {
			for _, r := range tl.Rows {
				r.Rank += k * world
				c.Rows = append(c.Rows, r)
			}
		}
		out.Steps = append(out.Steps, &c)
	}
	for k := range n {
		for _, l := range data.Lanes {
			l.Rank += k * world
			out.Lanes = append(out.Lanes, l)
		}
	}
	slices.SortFunc(out.Lanes, func(a, b events.Lane) int { return a.Rank - b.Rank })
	tl := *res.Timeline
	tl.Rows = out.Steps[slices.IndexFunc(data.Steps, func(s *result.Timeline) bool { return s.Iteration == tl.Iteration })].Rows
	big.Timeline = &tl
	return &big, out
}

// BenchmarkFrame1024Ranks renders one timeline frame of a 1,024-rank job
// at 160×45 with a search highlighting matches: only the visible lanes
// and the visible time range are walked. Budget: 16 ms.
func BenchmarkFrame1024Ranks(b *testing.B) {
	res, data := scaled(64)
	m := NewLoaded(res, WithEvents(data))
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	for _, k := range []string{"tab", "/", "type:AllReduce", "enter"} {
		for _, msg := range pressAll(k) {
			m.Update(msg)
		}
	}
	if got := len(m.panes[1].(*timeline).rows); got < 1024 {
		b.Fatalf("%d rows, want every one of 1,024 ranks", got)
	}
	for b.Loop() {
		_ = m.Render()
	}
}

// BenchmarkStepChange1024Ranks regroups the lanes of a 1,024-rank job for
// the next step (] then [).
func BenchmarkStepChange1024Ranks(b *testing.B) {
	res, data := scaled(64)
	m := NewLoaded(res, WithEvents(data))
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	m.Update(press("tab"))
	for b.Loop() {
		m.Update(press("]"))
		m.Update(press("["))
	}
}
