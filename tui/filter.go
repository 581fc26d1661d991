package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// filter is the timeline's lane filter, typed after f: comma-separated
// ranks and rank ranges (0-3,12), stages (s2) and stream classes (TP,
// compute, memcpy: every lane shows that sub-lane only).
type filter struct {
	editing bool
	text    string
	err     error
	class   string // the one sub-lane class shown, "" for none
}

func (f filter) status() string {
	switch {
	case f.editing:
		return " · filter: " + f.text + "█"
	case f.err != nil:
		return fmt.Sprintf(" · filter: %v", f.err)
	case f.class != "":
		return " · " + f.class + " sub-lanes"
	}
	return ""
}

func (t *timeline) editFilter(k tea.KeyPressMsg) {
	f := &t.filter
	switch {
	case k.Code == tea.KeyEnter:
		f.editing = false
		t.applyFilter()
	case key.Matches(k, t.c.Keys.Clear):
		*f = filter{}
	case k.Code == tea.KeyBackspace:
		if r := []rune(f.text); len(r) > 0 {
			f.text = string(r[:len(r)-1])
		}
	case k.Text != "":
		f.text += k.Text
	}
}

// applyFilter parses the filter into the ranks shown and the class.
func (t *timeline) applyFilter() {
	f := &t.filter
	only, class, err := parseFilter(f.text, t.stageRanks)
	if err != nil {
		f.err = err
		return
	}
	f.err, f.class, t.only = nil, class, only
	t.setStep(t.step)
	t.top = 0
	t.follow()
}

func parseFilter(text string, stage func(int) []int) (map[int]bool, string, error) {
	var only map[int]bool
	add := func(rs ...int) {
		if only == nil {
			only = map[int]bool{}
		}
		for _, r := range rs {
			only[r] = true
		}
	}
	class := ""
	for _, item := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' }) {
		if c := classNamed(item); c != "" {
			class = c
			continue
		}
		rs, err := parseRanks(item, stage)
		if err != nil {
			return nil, "", err
		}
		add(rs...)
	}
	return only, class, nil
}

func classNamed(s string) string {
	for _, k := range classes {
		if strings.EqualFold(k.name, s) {
			return k.name
		}
	}
	return ""
}

// parseRanks reads "12", "4-7" or "s2" (the ranks of stage 2).
func parseRanks(item string, stage func(int) []int) ([]int, error) {
	if s, ok := strings.CutPrefix(item, "s"); ok {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("%q: want a stage like s2", item)
		}
		return stage(n), nil
	}
	a, b, isRange := strings.Cut(item, "-")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := lo, error(nil)
	if isRange {
		hi, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || hi < lo {
		return nil, fmt.Errorf("%q: want ranks like 0-3,12, a stage like s2 or a class like TP", item)
	}
	out := make([]int, 0, hi-lo+1)
	for r := lo; r <= hi; r++ {
		out = append(out, r)
	}
	return out, nil
}

// stageRanks are the ranks of stage s in the step shown.
func (t *timeline) stageRanks(s int) []int {
	var out []int
	for _, r := range t.cur().Rows {
		if r.Stage == s {
			out = append(out, r.Rank)
		}
	}
	return out
}
