package tui

import (
	"strings"

	"github.com/tpptrace/tpptrace/model/vocab"
)

// axis is two lines over the lanes: tick labels (time since the step's
// start, in units that follow the zoom) and the ticks themselves.
func (t *timeline) axis() []string {
	n, start := t.cells(), t.cur().StartNs
	tick := tickStep(t.span, n)
	labels, ticks := []rune(strings.Repeat(" ", n)), []rune(strings.Repeat("─", n))
	first := start + ceilDiv(t.from-start, tick)*tick
	free := 0
	for at := first; at < t.from+t.span; at += tick {
		c := t.cellOf(at)
		if c < 0 || c >= n {
			continue
		}
		ticks[c] = '┬'
		l := []rune(vocab.Duration(at - start))
		if c >= free && c+len(l) <= n {
			copy(labels[c:], l)
			free = c + len(l) + 1
		}
	}
	if c, ok := t.cursorCell(); ok {
		ticks[c] = '▼'
	}
	pad := strings.Repeat(" ", labelWidth)
	return []string{t.c.Styles.Dim.Render(pad + string(labels)), t.c.Styles.Dim.Render(pad + string(ticks))}
}

// tickStep is the 1-2-5 multiple of a power of ten that puts a tick every
// ten cells or more.
func tickStep(span int64, cells int) int64 {
	want := max(span*10/int64(max(cells, 1)), 1)
	for p := int64(1); ; p *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if m*p >= want {
				return m * p
			}
		}
	}
}

func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

// cursorCell is the cell where the selected event starts, when visible.
func (t *timeline) cursorCell() (int, bool) {
	l := t.lane()
	if l == nil || t.ev < 0 || t.ev >= l.Len() {
		return 0, false
	}
	c := max(t.cellOf(l.Start[t.ev]), 0)
	return c, c < t.cells() && l.Start[t.ev]+l.Dur[t.ev] > t.from
}
