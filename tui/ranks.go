package tui

import (
	"cmp"
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// sortKeys are the rank table's sort columns, cycled with "s".
var sortKeys = []struct {
	name string
	val  func(r result.RankStats) int64
}{
	{"rank", func(r result.RankStats) int64 { return -int64(r.Rank) }},
	{"compute", func(r result.RankStats) int64 { return r.ComputeNs }},
	{"bubble", func(r result.RankStats) int64 { return r.BubbleNs }}, // "idle" without a pipeline, where the bubble is the idle time
	{"exposed TP", func(r result.RankStats) int64 { return r.ExposedNs["TP"] }},
	{"PP transfer", func(r result.RankStats) int64 { return r.BubblePPTransferNs }},
	{"exposed DP", func(r result.RankStats) int64 { return r.ExposedNs["DP"] }},
}

// ranks is a sortable table of every rank's breakdown; slow ranks are marked.
type ranks struct {
	c        *Common
	w, h     int
	sortBy   int
	row, top int
	slow     map[int]bool
}

func newRanks(c *Common) *ranks {
	slow := map[int]bool{}
	for _, s := range c.Res.SlowRanks {
		slow[s.Rank] = true
	}
	return &ranks{c: c, slow: slow}
}

func (r *ranks) Title() string    { return "Ranks" }
func (r *ranks) SetSize(w, h int) { r.w, r.h = w, h }
func (r *ranks) HelpLine() string {
	name := sortKeys[(r.sortBy+1)%len(sortKeys)].name
	if name == "bubble" {
		name = idleWord(r.c.Res)
	}
	return "j/k select · s sort by " + name + " · enter show on the timeline"
}

func (r *ranks) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return r, nil
	}
	switch {
	case key.Matches(k, r.c.Keys.Sort):
		r.sortBy = (r.sortBy + 1) % len(sortKeys)
	case key.Matches(k, r.c.Keys.Down):
		r.row = min(r.row+1, len(r.c.Res.Ranks)-1)
	case key.Matches(k, r.c.Keys.Up):
		r.row = max(r.row-1, 0)
	case key.Matches(k, r.c.Keys.Jump) && len(r.c.Res.Ranks) > 0:
		return r, SelectRankCmd(r.sorted()[r.row].Rank)
	}
	visible := max(r.h-2, 1)
	r.top = min(max(r.top, r.row-visible+1), r.row)
	return r, nil
}

func (r *ranks) sorted() []result.RankStats {
	rows := slices.Clone(r.c.Res.Ranks)
	val := sortKeys[r.sortBy].val
	slices.SortStableFunc(rows, func(a, b result.RankStats) int { return cmp.Compare(val(b), val(a)) })
	return rows
}

func (r *ranks) View() string {
	head := fmt.Sprintf("  %-5s %-10s %-9s %9s %9s %8s %9s %9s %9s %10s", "rank", "host", "pp/dp/tp",
		"step", "compute", "bubble", "exp TP", "PP xfer", "exp DP", "offset")
	if noPipeline(r.c.Res) {
		head = noPipelineRanksHead(rankAxes(r.c.Res))
	}
	by := sortKeys[r.sortBy].name
	if by == "bubble" {
		by = idleWord(r.c.Res)
	}
	lines := []string{r.c.Styles.Header.Render(head + "   sorted by " + by)}
	rows := r.sorted()
	for i := r.top; i < len(rows) && i < r.top+max(r.h-2, 1); i++ {
		lines = append(lines, r.line(rows[i], i == r.row))
	}
	return clip(lines, r.w, r.h)
}

func (r *ranks) line(x result.RankStats, selected bool) string {
	mark := "  "
	if r.slow[x.Rank] {
		mark = "! "
	}
	s := fmt.Sprintf("%s%-5d %-10s %-9s %9s %9s %8s %9s %9s %9s %10s", mark, x.Rank, vocab.Safe(x.Host),
		fmt.Sprintf("%d/%d/%d", x.PP, x.DP, x.TP), vocab.Duration(x.StepNs), vocab.Duration(x.ComputeNs),
		vocab.Percent(x.BubbleFraction), vocab.Duration(x.ExposedNs["TP"]), vocab.Duration(x.BubblePPTransferNs),
		vocab.Duration(x.ExposedNs["DP"]), vocab.Duration(x.ClockOffsetNs))
	if noPipeline(r.c.Res) {
		s = noPipelineRanksLine(mark, x, rankAxes(r.c.Res))
	}
	switch {
	case selected:
		return r.c.Styles.Selected.Render(s)
	case r.slow[x.Rank]:
		return r.c.Styles.Bad.Render(s)
	}
	return s
}
