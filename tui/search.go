package tui

import (
	"fmt"
	"regexp"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/tui/events"
)

// search is the timeline's event-name search: a regular expression typed
// after /, its matches highlighted on the visible lanes; n/N walk them.
type search struct {
	editing bool
	text    string
	re      *regexp.Regexp
	err     error
	names   []bool // per Data.Names entry: matches re
	count   int    // events that match, in every step
}

func (s *search) match(d *events.Data, lane *events.Lane, i int) bool {
	n := lane.Name[i]
	return int(n) < len(s.names) && s.names[n]
}

// status is the header's note of the search.
func (s search) status() string {
	switch {
	case s.editing:
		return " · /" + s.text + "█"
	case s.err != nil:
		return fmt.Sprintf(" · search: %v", s.err)
	case s.re != nil:
		return fmt.Sprintf(" · /%s/ %d events (n/N)", s.text, s.count)
	}
	return ""
}

// Capturing tells the model that typed keys belong to the search.
func (t *timeline) Capturing() bool { return t.search.editing || t.filter.editing }

func (t *timeline) editSearch(k tea.KeyPressMsg) {
	s := &t.search
	switch {
	case k.Code == tea.KeyEnter:
		s.editing = false
		t.compile()
		t.nextMatch(0)
	case key.Matches(k, t.c.Keys.Clear):
		*s = search{}
	case k.Code == tea.KeyBackspace:
		if r := []rune(s.text); len(r) > 0 {
			s.text = string(r[:len(r)-1])
		}
	case k.Text != "":
		s.text += k.Text
	}
}

func (t *timeline) compile() {
	s := &t.search
	s.re, s.err = regexp.Compile(s.text)
	if s.err != nil || t.c.Data == nil {
		s.re = nil
		return
	}
	s.names = make([]bool, len(t.c.Data.Names))
	for i, n := range t.c.Data.Names {
		s.names[i] = s.re.MatchString(n)
	}
	for _, l := range t.c.Data.Lanes {
		for _, n := range l.Name {
			if s.names[n] {
				s.count++
			}
		}
	}
}

// nextMatch selects the d-th match after the selected event (d = 0: the
// selected one or the next), on this lane and then on the following ones.
func (t *timeline) nextMatch(d int) {
	if t.search.re == nil || t.c.Data == nil {
		return
	}
	tl := t.cur()
	step := 1
	if d < 0 {
		step = -1
	}
	for k := 0; k < len(t.rows); k++ {
		row := (t.row + step*k + len(t.rows)*2) % len(t.rows)
		lane := t.c.Data.Lane(t.rows[row].rank)
		if lane == nil {
			continue
		}
		from := 0
		if k == 0 {
			from = t.ev + d
		} else if step < 0 {
			from = lane.Len() - 1
		}
		if i := t.findOn(lane, from, step, tl.StartNs, tl.EndNs); i >= 0 {
			t.row, t.ev = row, i
			t.follow()
			t.show(lane, i)
			return
		}
	}
}

func (t *timeline) findOn(lane *events.Lane, from, step int, a, b int64) int {
	for i := from; i >= 0 && i < lane.Len(); i += step {
		if lane.Start[i] >= a && lane.Start[i] < b && t.search.match(t.c.Data, lane, i) {
			return i
		}
	}
	return -1
}
