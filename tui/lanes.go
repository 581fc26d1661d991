package tui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/palette"
	"github.com/tpptrace/tpptrace/tui/events"
)

// catIndex numbers the palette's categories for per-cell sums.
var catIndex = func() map[string]int {
	m := map[string]int{}
	for i, c := range vocab.Categories {
		m[c] = i
	}
	return m
}()

// exposed are the categories of communication with no compute under it:
// a cell they touch shows them, so that compute never hides them.
var exposed = func() []bool {
	e := make([]bool, len(vocab.Categories))
	for _, c := range []string{vocab.CatTPExposed, vocab.CatPPExposed, vocab.CatDPExposed, vocab.CatCPExposed, vocab.CatEPExposed, vocab.CatA2AExposed} {
		e[catIndex[c]] = true
	}
	return e
}()

// halfGlyph draws a compute cell with exposed communication inside it: the
// upper half in compute's colour, the lower half in the communication's.
const halfGlyph = "▄"

// laneLines draws the visible rows: stage headers and lanes.
func (t *timeline) laneLines() []string {
	n := t.laneRows()
	out := make([]string, 0, n)
	for i := t.top; i < len(t.rows) && i < t.top+n; i++ {
		r := t.rows[i]
		switch {
		case r.rank < 0:
			out = append(out, t.c.Styles.Header.Render(t.stageHeader(r.stage)))
			continue
		case r.sub != "":
			out = append(out, t.subLine(r))
			continue
		}
		out = append(out, t.laneLine(r, i == t.row))
	}
	return out
}

func (t *timeline) stageHeader(stage int) string {
	if noPipeline(t.c.Res) {
		return "ranks"
	}
	return fmt.Sprintf("stage %d", stage)
}

func (t *timeline) laneLine(r laneRow, selected bool) string {
	label := fmt.Sprintf(" r%-*d", labelWidth-3, r.rank)
	if selected {
		label = t.c.Styles.Selected.Render(fmt.Sprintf("▸r%-*d", labelWidth-3, r.rank))
	}
	cats := bucket(r.segs, t.from, t.from+t.span, t.cells())
	marks := t.marks(r.rank, selected)
	return label + " " + t.paint(cats, marks)
}

// marks flags the cells of the selected event (2), of search matches (1)
// and of the critical path's ops (3).
func (t *timeline) marks(rank int, selected bool) []byte {
	path := t.pathOps(rank)
	if len(path) > 0 {
		m := make([]byte, t.cells())
		for _, op := range path {
			t.markSpan(m, op.StartNs, op.EndNs, 3)
		}
		return t.eventMarks(m, rank, selected)
	}
	if t.c.Data == nil || (!selected && t.search.re == nil) {
		return nil
	}
	return t.eventMarks(make([]byte, t.cells()), rank, selected)
}

// eventMarks adds the search matches and the selected event to m.
func (t *timeline) eventMarks(m []byte, rank int, selected bool) []byte {
	if t.c.Data == nil {
		return m
	}
	lane := t.c.Data.Lane(rank)
	if lane == nil {
		return m
	}
	if t.search.re != nil {
		lo, hi := lane.Window(t.from, t.from+t.span)
		for i := lo; i < hi; i++ {
			if t.search.match(t.c.Data, lane, i) {
				t.mark(m, lane, i, 1)
			}
		}
	}
	if selected && t.ev >= 0 && t.ev < lane.Len() {
		t.mark(m, lane, t.ev, 2)
	}
	return m
}

func (t *timeline) mark(m []byte, lane *events.Lane, i int, v byte) {
	t.markSpan(m, lane.Start[i], lane.Start[i]+lane.Dur[i], v)
}

// markSpan flags the cells of [start, end) with v (the higher mark wins).
func (t *timeline) markSpan(m []byte, start, end int64, v byte) {
	a, b := t.cellOf(start), t.cellOf(end)
	for c := max(a, 0); c <= min(b, len(m)-1); c++ {
		m[c] = max(m[c], v)
	}
}

// cellOf is the cell holding instant ns (may be outside 0..cells-1).
func (t *timeline) cellOf(ns int64) int {
	return int(float64(ns-t.from) * float64(t.cells()) / float64(t.span))
}

// paint renders the cells: one escape sequence per run of equal cells,
// taken from a cache of the styled run ends.
func (t *timeline) paint(cells []cell, marks []byte) string {
	var b strings.Builder
	for i := 0; i < len(cells); {
		j := i
		for j < len(cells) && cells[j] == cells[i] && markAt(marks, j) == markAt(marks, i) {
			j++
		}
		st := t.cellStyle(cells[i], markAt(marks, i))
		b.WriteString(st.open)
		for range j - i {
			b.WriteString(st.glyph)
		}
		b.WriteString(st.close)
		i = j
	}
	return b.String()
}

// runStyle is a styled run's opening and closing sequences and its glyph.
type runStyle struct{ open, glyph, close string }

type styleKey struct {
	c    cell
	mark byte
}

// cellStyle is the cached style of cells like c with mark.
func (t *timeline) cellStyle(c cell, mark byte) runStyle {
	k := styleKey{c, mark}
	if st, ok := t.styleCache[k]; ok {
		return st
	}
	cat := vocab.Categories[c.cat]
	st, glyph := t.c.Styles.Category[cat], string(glyphs[cat])
	if c.under >= 0 {
		st, glyph = t.c.Styles.Category[vocab.Categories[c.under]].Background(asColor(palette.Color(cat))), halfGlyph
	}
	switch mark {
	case 1:
		st = st.Underline(true).Bold(true)
	case 2:
		st = st.Reverse(true)
	case 3:
		st = st.Bold(true).Italic(true).Underline(true)
	}
	open, close, _ := strings.Cut(st.Render("\x00"), "\x00")
	if t.styleCache == nil {
		t.styleCache = map[styleKey]runStyle{}
	}
	t.styleCache[k] = runStyle{open, glyph, close}
	return t.styleCache[k]
}

func markAt(m []byte, i int) byte {
	if m == nil {
		return 0
	}
	return m[i]
}

// cell is what one lane cell shows: the category covering most of it and,
// when that is compute, the exposed communication inside it (-1 none),
// drawn in the cell's lower half so that compute never hides it.
type cell struct{ cat, under int }

// bucket returns the n cells of [from, to); cells nothing covers are idle.
// It walks only the segments overlapping [from, to).
func bucket(segs []result.Segment, from, to int64, n int) []cell {
	nc := len(vocab.Categories)
	cover := make([]int64, n*nc)
	width := float64(to-from) / float64(n)
	lo := sort.Search(len(segs), func(i int) bool { return segs[i].EndNs > from })
	for _, s := range segs[lo:] {
		if s.StartNs >= to {
			break
		}
		cat, a, b := catIndex[s.Category], max(s.StartNs, from), min(s.EndNs, to)
		for a < b {
			i := min(int(float64(a-from)/width), n-1)
			end := min(b, max(from+int64(float64(i+1)*width), a+1))
			cover[i*nc+cat] += end - a
			a = end
		}
	}
	out := make([]cell, n)
	for i := range out {
		out[i] = pick(cover[i*nc : (i+1)*nc])
	}
	return out
}

func pick(cov []int64) cell {
	c := cell{cat: dominant(cov), under: -1}
	if c.cat != catIndex[vocab.CatCompute] {
		return c
	}
	var ns int64
	for k, v := range cov {
		if exposed[k] && v > ns {
			c.under, ns = k, v
		}
	}
	return c
}

func dominant(cov []int64) int {
	best, bestNs := catIndex[vocab.CatIdle], int64(0)
	for c, ns := range cov {
		if ns > bestNs {
			best, bestNs = c, ns
		}
	}
	return best
}

func legend(c *Common) string {
	var parts []string
	cats := []string{vocab.CatCompute, vocab.CatTPExposed, vocab.CatTP, vocab.CatPPExposed, vocab.CatPP, vocab.CatDPExposed, vocab.CatDP}
	if noPipeline(c.Res) {
		cats = []string{vocab.CatCompute, vocab.CatTPExposed, vocab.CatTP, vocab.CatDPExposed, vocab.CatDP, vocab.CatA2AExposed, vocab.CatA2A}
	}
	for _, cat := range cats {
		parts = append(parts, c.Styles.Category[cat].Render(string(glyphs[cat]))+" "+cat)
	}
	if noPipeline(c.Res) {
		return strings.Join(append(parts, halfGlyph+" compute over exposed comm", "' ' idle"), "  ")
	}
	parts = append(parts, halfGlyph+" compute over exposed comm", c.Styles.Category[vocab.CatPPWait].Render(string(glyphs[vocab.CatPPWait]))+
		c.Styles.Category[vocab.CatBubble].Render(string(glyphs[vocab.CatBubble]))+" bubble (PP wait, idle)")
	return strings.Join(parts, "  ")
}
