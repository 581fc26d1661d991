package tui

import (
	"strings"

	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/tui/events"
)

// A rank's lane expands (e, or E for every rank) into one sub-lane per
// stream class — compute, each communication axis, copies — drawn from
// the events themselves with half-cell resolution: ▌ or ▐ when events
// fill only one half of a cell, █ both, so that a collective of any
// length stays visible at any zoom.

// classes are the sub-lanes in the order they are drawn, with the colour
// each takes from the palette.
var classes = []struct{ name, color string }{
	{"compute", vocab.CatCompute}, {"TP", vocab.CatTP}, {"PP", vocab.CatPP}, {"DP", vocab.CatDP},
	{"CP", vocab.CatCP}, {"EP", vocab.CatEP}, {"A2A", vocab.CatA2A}, {"comm", vocab.CatDP}, {"memcpy", vocab.CatMemcpy},
}

// class is event i's stream class.
func class(d *events.Data, l *events.Lane, i int) string {
	switch l.Kind[i] {
	case events.Comm:
		if c := l.Coll[i]; c >= 0 {
			for _, k := range classes[1:7] {
				if k.name == d.Colls[c].Axis {
					return k.name
				}
			}
		}
		return "comm"
	case events.Memcpy, events.Memset:
		return "memcpy"
	}
	return "compute"
}

// laneClasses are the classes of the lane's events, in draw order (cached).
func (t *timeline) laneClasses(rank int) []string {
	if got, ok := t.classCache[rank]; ok {
		return got
	}
	l := t.c.Data.Lane(rank)
	seen := map[string]bool{}
	for i := range l.Len() {
		seen[class(t.c.Data, l, i)] = true
	}
	var out []string
	for _, k := range classes {
		if seen[k.name] {
			out = append(out, k.name)
		}
	}
	if t.classCache == nil {
		t.classCache = map[int][]string{}
	}
	t.classCache[rank] = out
	return out
}

// subRows are the sub-lanes of rank when it is expanded.
func (t *timeline) subRows(r laneRow) []laneRow {
	if t.c.Data == nil || t.c.Data.Lane(r.rank) == nil || !(t.expandAll || t.expanded[r.rank] || t.filter.class != "") {
		return nil
	}
	var out []laneRow
	for _, k := range t.laneClasses(r.rank) {
		if t.filter.class != "" && k != t.filter.class {
			continue
		}
		out = append(out, laneRow{rank: r.rank, stage: r.stage, sub: k})
	}
	return out
}

// toggle expands or collapses the selected rank (all: every rank).
func (t *timeline) toggle(all bool) {
	if all {
		t.expandAll = !t.expandAll
		t.expanded = nil
	} else if r := t.rank(); r >= 0 {
		if t.expanded == nil {
			t.expanded = map[int]bool{}
		}
		t.expanded[r] = !(t.expandAll || t.expanded[r])
		t.expandAll = false
	}
	t.setStep(t.step)
	t.follow()
}

// subLine draws one sub-lane: half-cell occupancy of the class's events.
func (t *timeline) subLine(r laneRow) string {
	l := t.c.Data.Lane(r.rank)
	n := t.cells()
	half := make([]bool, 2*n)
	lo, hi := l.Window(t.from, t.from+t.span)
	for i := lo; i < hi; i++ {
		if class(t.c.Data, l, i) != r.sub {
			continue
		}
		a, b := t.halfOf(l.Start[i]), t.halfOf(l.Start[i]+l.Dur[i])
		for h := max(a, 0); h <= min(b, 2*n-1); h++ {
			half[h] = true
		}
	}
	var b strings.Builder
	for c := range n {
		b.WriteString(halfCell(half[2*c], half[2*c+1]))
	}
	color := vocab.CatCompute
	for _, k := range classes {
		if k.name == r.sub {
			color = k.color
		}
	}
	label := t.c.Styles.Dim.Render(padRight("  "+r.sub, labelWidth))
	return label + t.c.Styles.Category[color].Render(b.String())
}

func (t *timeline) halfOf(ns int64) int {
	return int(float64(ns-t.from) * float64(2*t.cells()) / float64(t.span))
}

func halfCell(left, right bool) string {
	switch {
	case left && right:
		return "█"
	case left:
		return "▌"
	case right:
		return "▐"
	}
	return " "
}

func padRight(s string, w int) string {
	if n := displayWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return truncate(s, w)
}
