package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/tui/events"
)

// The interactions of docs/tui.md, each a golden at 80×24 and 160×45.

func TestStepChangeGolden(t *testing.T) { golden(t, "tab", "]") }
func TestHelpGolden(t *testing.T)       { golden(t, "?") }

// TestHelpScrolledGolden: j scrolls the help to its last line, no further.
func TestHelpScrolledGolden(t *testing.T) {
	keys := []string{"?"}
	for range 60 {
		keys = append(keys, "j")
	}
	golden(t, keys...)
}
func TestFindingJumpGolden(t *testing.T) {
	res, data := analysed()
	goldenWait(t, func() *Model { return NewLoaded(res, WithEvents(data)) }, "1 of 16 ranks", "tab", "tab", "tab", "down", "enter")
}

// TestCollectiveDetailGolden: rank 5 (the slow one) selected, the first TP
// all-reduce found by search, its members with their waits.
func TestCollectiveDetailGolden(t *testing.T) {
	golden(t, "tab", "j", "j", "j", "j", "j", "/", "type:AllReduce", "enter")
}

func TestPeerJumpGolden(t *testing.T) {
	golden(t, "tab", "j", "j", "j", "j", "j", "/", "type:AllReduce", "enter", "p")
}

func TestSearchGolden(t *testing.T) { golden(t, "tab", "/", "type:SendRecv", "enter", "n", "n") }

func TestBaselineGolden(t *testing.T) {
	res, data := analysed()
	base := baselineResult(t)
	goldenModel(t, func() *Model { return NewLoaded(res, WithEvents(data), WithBaseline(base, "base.json")) }, "shift+tab")
}

// baselineResult is the default job without its planted faults: the
// balanced TP2 PP4 DP2 1F1B job the default scenario departs from.
func baselineResult(t *testing.T) *result.Result {
	j, err := samples.Simulate(samples.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	r, err := analysis.Analyze(context.Background(), j.Trace, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLoadingGolden: the loading screen with the bytes read, then q
// cancels the load through its context.
func TestLoadingGolden(t *testing.T) {
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			cancelled := make(chan error, 1)
			m := New(func(ctx context.Context, progress func(ProgressMsg)) (*result.Result, *events.Data, error) {
				<-ctx.Done()
				cancelled <- ctx.Err()
				return nil, nil, ctx.Err()
			})
			tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(sz.w, sz.h),
				teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
			tm.Send(ProgressMsg{Done: 45 << 20, Total: 120 << 20})
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(string(b), "37 %") })
			tm.Send(press("q"))
			fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
			teatest.RequireEqualOutput(t, []byte(ansi.Strip(fm.Render())))
			select {
			case err := <-cancelled:
				if err != context.Canceled {
					t.Fatalf("load ended with %v, want context.Canceled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("q did not cancel the load")
			}
		})
	}
}

func TestAnalysisProgressShowsStep(t *testing.T) {
	m := New(nil)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(ProgressMsg{Step: "measure", Index: 4, Steps: 6})
	if got := ansi.Strip(m.Render()); !strings.Contains(got, "analysing: measure (step 4 of 6)") {
		t.Fatalf("loading screen %q", got)
	}
}

func TestTooSmallGolden(t *testing.T) {
	res, data := analysed()
	tm := teatest.NewTestModel(t, NewLoaded(res, WithEvents(data)), teatest.WithInitialTermSize(40, 10),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	tm.Send(press("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(fm.Render())))
}

// loaded is the analysed default job at 160×45 on the timeline.
func loaded(t *testing.T, keys ...string) (*Model, *timeline) {
	res, data := analysed()
	m := NewLoaded(res, WithEvents(data))
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	for _, k := range append([]string{"tab"}, keys...) {
		for _, msg := range pressAll(k) {
			m.Update(msg)
		}
	}
	return m, m.panes[1].(*timeline)
}

var memberLine = regexp.MustCompile(`(?m)^(▸| ) r(\d+) +arrival +\S+ \S+ +wait +(\S+ \S+)`)

// TestCollectiveDetailListsEveryMember: the detail of a TP all-reduce of
// rank 5 lists every member of its communicator in the trace, and rank 5,
// planted 20 % slower, arrives last: it waits least.
func TestCollectiveDetailListsEveryMember(t *testing.T) {
	_, tl := loaded(t, "j", "j", "j", "j", "j", "/", "type:AllReduce", "enter")
	if tl.rank() != 5 {
		t.Fatalf("selected rank %d, want 5", tl.rank())
	}
	c := tl.coll()
	if c == nil {
		t.Fatal("no collective selected")
	}
	tr := defaultJob().Trace
	var want []string
	for _, cm := range tr.Comms {
		if cm.ID == c.Comm {
			for _, r := range cm.Members {
				want = append(want, fmt.Sprint(r))
			}
		}
	}
	detail := ansi.Strip(strings.Join(tl.detail(), "\n"))
	var got []string
	waits := map[string]string{}
	for _, m := range memberLine.FindAllStringSubmatch(detail, -1) {
		got = append(got, m[2])
		waits[m[2]] = m[3]
	}
	if !slices.Equal(got, want) || len(want) < 2 {
		t.Fatalf("members %v, want the communicator's %v:\n%s", got, want, detail)
	}
	for _, m := range c.Members {
		if m.Rank != 5 && m.WaitNs <= c.Members[slices.IndexFunc(c.Members, func(x events.Member) bool { return x.Rank == 5 })].WaitNs {
			t.Errorf("rank %d waits %d ns, no more than the slow rank 5:\n%s", m.Rank, m.WaitNs, detail)
		}
	}
}

// TestPeerJumpSelectsTheMatchedKernel: p moves to the other member's lane
// and selects its kernel of the same instance.
func TestPeerJumpSelectsTheMatchedKernel(t *testing.T) {
	_, tl := loaded(t, "j", "j", "j", "j", "j", "/", "type:AllReduce", "enter")
	before := tl.coll()
	tl.Update(press("p"))
	if tl.rank() == 5 || tl.coll() != before {
		t.Fatalf("after p: rank %d, same instance %v", tl.rank(), tl.coll() == before)
	}
	if !strings.Contains(ansi.Strip(tl.View()), fmt.Sprintf("▸r%d", tl.rank())) {
		t.Fatal("the peer's lane is not shown selected")
	}
}

// TestStepPickerWalksIterations: ] shows the next analysed iteration.
func TestStepPickerWalksIterations(t *testing.T) {
	m, tl := loaded(t)
	its := m.c.Res.Iterations
	i := slices.IndexFunc(its, func(it result.Iteration) bool { return it.Index == tl.cur().Iteration })
	tl.Update(press("]"))
	if i+1 < len(its) && tl.cur().Iteration != its[i+1].Index {
		t.Fatalf("after ]: step %d, want %d", tl.cur().Iteration, its[i+1].Index)
	}
	if !strings.Contains(ansi.Strip(tl.View()), fmt.Sprintf("step %d ", tl.cur().Iteration)) {
		t.Fatal("header does not name the step")
	}
}

// TestFindingJumpFiltersItsRanks: enter on a finding shows the timeline
// with the finding's ranks only.
func TestFindingJumpFiltersItsRanks(t *testing.T) {
	res, data := analysed()
	m := NewLoaded(res, WithEvents(data))
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	f := slices.IndexFunc(res.Findings, func(f result.Finding) bool { return len(f.Ranks) > 0 })
	if f < 0 {
		t.Skip("no finding names ranks")
	}
	for range 3 {
		m.Update(press("tab"))
	}
	for range f {
		m.Update(press("down"))
	}
	_, cmd := m.Update(press("enter"))
	m.Update(cmd())
	tl := m.panes[m.active].(*timeline)
	var ranks []int
	for _, r := range tl.rows {
		if r.rank >= 0 {
			ranks = append(ranks, r.rank)
		}
	}
	want := slices.Sorted(slices.Values(res.Findings[f].Ranks))
	slices.Sort(ranks)
	if !slices.Equal(ranks, want) {
		t.Fatalf("timeline lanes %v, want the finding's ranks %v", ranks, want)
	}
}

func TestSubLanesGolden(t *testing.T) {
	golden(t, "tab", "j", "j", "j", "j", "j", "e", "+", "+", "+")
}

func TestFilterGolden(t *testing.T) { golden(t, "tab", "f", "type:s1 TP", "enter") }

// TestFilterParses: ranges, single ranks and stages add up; a class names
// the one sub-lane shown; anything else is an error.
func TestFilterParses(t *testing.T) {
	stage := func(s int) []int { return []int{4 * s, 4*s + 1} }
	only, class, err := parseFilter("0-2,9 s3 dp", stage)
	if err != nil || class != "DP" || len(only) != 6 || !only[2] || !only[9] || !only[13] || only[3] {
		t.Fatalf("only %v class %q err %v", only, class, err)
	}
	if _, _, err := parseFilter("3-1", stage); err == nil {
		t.Fatal("3-1 accepted")
	}
}

// TestMouseSelectsAndZooms: a click on rank 4's lane selects it and the
// event under the pointer; the wheel zooms in at the pointer.
func TestMouseSelectsAndZooms(t *testing.T) {
	m, tl := loaded(t)
	y := 2 + headRows + slices.IndexFunc(tl.rows, func(r laneRow) bool { return r.lane() && r.rank == 4 })
	x := labelWidth + tl.cells()/2
	m.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	if tl.rank() != 4 || tl.ev < 0 {
		t.Fatalf("after a click on rank 4's lane: rank %d event %d", tl.rank(), tl.ev)
	}
	at := tl.instant(x)
	l := tl.lane()
	if l.Start[tl.ev] > at+tl.span/int64(tl.cells()) || l.Start[tl.ev]+l.Dur[tl.ev] < at-tl.span/int64(tl.cells()) {
		t.Errorf("selected event [%d, %d) is not under the pointer at %d", l.Start[tl.ev], l.Start[tl.ev]+l.Dur[tl.ev], at)
	}
	span := tl.span
	m.Update(tea.MouseWheelMsg{X: x, Y: y, Button: tea.MouseWheelUp})
	if tl.span != span/2 || tl.instant(x)-at > tl.span/int64(tl.cells()) || at-tl.instant(x) > tl.span/int64(tl.cells()) {
		t.Errorf("wheel: span %d → %d, instant under the pointer %d → %d", span, tl.span, at, tl.instant(x))
	}
	a, b := tl.instant(x), tl.instant(x+21)
	m.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	m.Update(tea.MouseReleaseMsg{X: x + 20, Y: y, Button: tea.MouseLeft})
	if tl.from != a || tl.from+tl.span != b {
		t.Errorf("drag over [%d, %d): window [%d, %d)", a, b, tl.from, tl.from+tl.span)
	}
}

// TestDocsListEveryKey: docs/tui.md has a row for every binding of the key map.
func TestDocsListEveryKey(t *testing.T) {
	doc, err := os.ReadFile("../docs/tui.md")
	if err != nil {
		t.Skipf("docs/tui.md: %v", err)
	}
	v := reflect.ValueOf(DefaultKeys())
	for i := range v.NumField() {
		b := v.Field(i).Interface().(key.Binding)
		if row := fmt.Sprintf("| `%s` |", b.Help().Key); !strings.Contains(string(doc), row) {
			t.Errorf("docs/tui.md has no row %q for %s", row, v.Type().Field(i).Name)
		}
	}
}

var captureBlock = regexp.MustCompile("(?s)```text\n(.*?)\n```")

// TestDocsCapturesAreGoldens: every capture in docs/tui.md is one of the
// goldens, so that the docs show what the TUI draws (refresh both with
// -update, then copy the golden).
func TestDocsCapturesAreGoldens(t *testing.T) {
	doc, err := os.ReadFile("../docs/tui.md")
	if err != nil {
		t.Skipf("docs/tui.md: %v", err)
	}
	goldens := map[string]bool{}
	files, _ := filepath.Glob("testdata/*/*.golden")
	more, _ := filepath.Glob("testdata/*.golden")
	for _, f := range append(files, more...) {
		b, _ := os.ReadFile(f)
		goldens[strings.TrimRight(string(b), "\n")] = true
	}
	for _, m := range captureBlock.FindAllStringSubmatch(string(doc), -1) {
		if !goldens[m[1]] {
			t.Errorf("docs/tui.md capture is no golden:\n%s", m[1])
		}
	}
}

// TestRankEnterSelectsItsLane: enter on the Ranks pane's first row (the
// slow rank once sorted by compute) selects its lane on the timeline.
func TestRankEnterSelectsItsLane(t *testing.T) {
	res, data := analysed()
	m := NewLoaded(res, WithEvents(data))
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	m.Update(press("tab"))
	m.Update(press("tab"))
	m.Update(press("s"))
	_, cmd := m.Update(press("enter"))
	m.Update(cmd())
	tl, ok := m.panes[m.active].(*timeline)
	if !ok || tl.rank() != m.panes[2].(*ranks).sorted()[0].Rank {
		t.Fatalf("after enter on the ranks pane: pane %d, rank %d", m.active, tl.rank())
	}
}
