package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/tui/events"
	"github.com/tpptrace/tpptrace/tui/explore"
)

// pressAll turns a key name, or "type:text" (each rune a key), into key presses.
func pressAll(k string) []tea.Msg {
	if text, ok := strings.CutPrefix(k, "type:"); ok {
		var out []tea.Msg
		for _, r := range text {
			out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		return out
	}
	return []tea.Msg{press(k)}
}

var sizes = []struct{ w, h int }{{80, 24}, {160, 45}}

// analysed is the generator's default job (TP2 PP4 DP2, m=8, 1F1B, rank 5
// slower) analysed by the real analysis and handed over by the real event
// builder: what the command's loader gives the TUI for traces.
var analysed = sync.OnceValues(func() (*result.Result, *events.Data) {
	t := defaultJob().Trace
	res, d, err := analysis.AnalyzeDetail(context.Background(), t, analysis.Options{})
	if err != nil {
		panic(err)
	}
	return res, explore.Build(t, d)
})

var defaultJob = sync.OnceValue(func() *samples.Job {
	cfg, err := samples.Lookup("default")
	if err != nil {
		panic(err)
	}
	j, err := samples.Simulate(cfg)
	if err != nil {
		panic(err)
	}
	return j
})

func press(s string) tea.KeyPressMsg {
	switch s {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
}

// golden drives the TUI with keys at each size and compares the final
// screen, stripped of colour, with testdata/<test>/<w>x<h>.golden.
func golden(t *testing.T, keys ...string) {
	res, data := analysed()
	goldenModel(t, func() *Model { return NewLoaded(res, WithEvents(data)) }, keys...)
}

func goldenModel(t *testing.T, model func() *Model, keys ...string) {
	goldenWait(t, model, "", keys...)
}

// goldenWait is goldenModel that waits, before quitting, for the screen to
// show wait (the answer to a command the keys started).
func goldenWait(t *testing.T, model func() *Model, wait string, keys ...string) {
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			tm := teatest.NewTestModel(t, model(),
				teatest.WithInitialTermSize(sz.w, sz.h),
				teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
			for _, k := range keys {
				for _, msg := range pressAll(k) {
					tm.Send(msg)
				}
			}
			if wait != "" {
				teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(ansi.Strip(string(b)), wait) },
					teatest.WithDuration(5*time.Second))
			}
			tm.Send(press("q"))
			fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
			teatest.RequireEqualOutput(t, []byte(ansi.Strip(fm.Render())))
		})
	}
}

func TestOverviewGolden(t *testing.T) { golden(t) }
func TestTimelineGolden(t *testing.T) { golden(t, "tab", "down", "+") }
func TestRanksSortedGolden(t *testing.T) {
	golden(t, "tab", "tab", "s")
}
func TestFindingsGolden(t *testing.T) { golden(t, "tab", "tab", "tab", "down") }

func TestScreenFitsTerminal(t *testing.T) {
	res, data := analysed()
	for _, sz := range append(sizes, struct{ w, h int }{MinWidth, MinHeight}) {
		for _, m := range []*Model{NewLoaded(fixture.Result(fixture.Large())), NewLoaded(res, WithEvents(data), WithBaseline(res, "base.json"))} {
			m.Update(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			for tab := range len(m.panes) + 1 {
				if tab == len(m.panes) {
					m.Update(press("?"))
				}
				screenFits(t, ansi.Strip(m.Render()), sz.w, sz.h, tab)
				m.Update(press("tab"))
			}
		}
	}
}

func screenFits(t *testing.T, screen string, w, h, tab int) {
	lines := strings.Split(screen, "\n")
	if len(lines) > h {
		t.Errorf("%dx%d pane %d: %d lines", w, h, tab, len(lines))
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > w {
			t.Errorf("%dx%d pane %d: line wider than the terminal: %q", w, h, tab, l)
		}
	}
}

func TestBucketPicksDominantCategory(t *testing.T) {
	segs := []result.Segment{
		{StartNs: 0, EndNs: 30, Category: "compute"},
		{StartNs: 30, EndNs: 100, Category: "tp_exposed"},
		{StartNs: 100, EndNs: 150, Category: "bubble"},
		{StartNs: 150, EndNs: 197, Category: "compute"},
		{StartNs: 197, EndNs: 199, Category: "dp_exposed"},
	}
	got := bucket(segs, 0, 200, 4)
	// cells 0 and 3: compute covers most, the exposed TP and DP inside
	// them are drawn under it, never hidden
	want := []string{"compute/tp_exposed", "tp_exposed", "bubble", "compute/dp_exposed"}
	for i := range want {
		name := vocab.Categories[got[i].cat]
		if got[i].under >= 0 {
			name += "/" + vocab.Categories[got[i].under]
		}
		if name != want[i] {
			t.Fatalf("cell %d = %s, want %v", i, name, want)
		}
	}
}

func TestRanksSortByCompute(t *testing.T) {
	m := NewLoaded(fixture.Result(fixture.Small()))
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	r := m.panes[2].(*ranks)
	r.Update(press("s"))
	rows := r.sorted()
	for i := 1; i < len(rows); i++ {
		if rows[i].ComputeNs > rows[i-1].ComputeNs {
			t.Fatalf("not sorted by compute at %d", i)
		}
	}
	if len(m.c.Res.SlowRanks) > 0 && !strings.Contains(ansi.Strip(r.View()), "! ") {
		t.Fatal("slow ranks must be marked")
	}
}

func TestLoadingShowsProgressThenResult(t *testing.T) {
	res := fixture.Result(fixture.Small())
	m := New(func(_ context.Context, progress func(ProgressMsg)) (*result.Result, *events.Data, error) {
		progress(ProgressMsg{Done: 50, Total: 100})
		return res, nil, nil
	})
	m.Update(ProgressMsg{Done: 25, Total: 100})
	if got := m.Render(); !strings.Contains(got, "25 %") {
		t.Fatalf("loading screen %q", got)
	}
	msg := m.Init()()
	m.Update(msg)
	if !strings.Contains(ansi.Strip(m.Render()), "world ") {
		t.Fatalf("after LoadedMsg the overview should show: %q", m.Render())
	}
}

func TestLoadErrorIsShown(t *testing.T) {
	m := New(func(context.Context, func(ProgressMsg)) (*result.Result, *events.Data, error) {
		return nil, nil, errors.New("rank-3.json: byte 120: unexpected EOF")
	})
	m.Update(m.Init()())
	if got := m.Render(); !strings.Contains(got, "rank-3.json: byte 120") {
		t.Fatalf("error screen %q", got)
	}
	if _, cmd := m.Update(press("q")); cmd == nil || !bytes.Equal([]byte(fmt.Sprint(cmd())), []byte(fmt.Sprint(tea.Quit()))) {
		t.Fatal("q must quit from the error screen")
	}
}

// TestEveryCategoryHasAGlyph: each palette category draws as something,
// and both parts of the bubble draw as a dot.
func TestEveryCategoryHasAGlyph(t *testing.T) {
	for _, c := range vocab.Categories {
		if _, ok := glyphs[c]; !ok {
			t.Errorf("no glyph for %s", c)
		}
	}
	if glyphs[vocab.CatPPWait] != '·' || glyphs[vocab.CatBubble] != '·' || glyphs[vocab.CatPPExposed] != 'P' {
		t.Errorf("pp_wait %q, bubble %q, pp_exposed %q: want the bubble as dots, the transfer as P",
			glyphs[vocab.CatPPWait], glyphs[vocab.CatBubble], glyphs[vocab.CatPPExposed])
	}
}

func TestWrapKeepsWordsAndWidth(t *testing.T) {
	text := "the bubble measures 21.6 ms per step: 20.3 ms pipeline send/recv waiting for the neighbour"
	lines := wrap("  • ", text, 40)
	if len(lines) < 3 {
		t.Fatalf("want the line wrapped at 40 cells, got %q", lines)
	}
	var words []string
	for i, l := range lines {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("line %d is %d cells wide: %q", i, ansi.StringWidth(l), l)
		}
		if i > 0 && !strings.HasPrefix(l, "    ") {
			t.Errorf("continuation line %d is not indented under the bullet: %q", i, l)
		}
		words = append(words, strings.Fields(strings.TrimPrefix(l, "  • "))...)
	}
	if strings.Join(words, " ") != text {
		t.Fatalf("words lost or reordered: %q", words)
	}
}

func TestJobLineShowsThroughputWhenKnown(t *testing.T) {
	r := fixture.Result(fixture.Small())
	if strings.Contains(JobLine(r), "tokens/s") {
		t.Fatal("no throughput without the model's figures")
	}
	r.TokensPerS, r.MFU = 1_234_567.4, 0.415
	if got := JobLine(r); !strings.Contains(got, "1,234,567 tokens/s · MFU 41.5 %") {
		t.Fatalf("job line %q", got)
	}
}

func TestJobLineNamesMissingRanks(t *testing.T) {
	r := fixture.Result(fixture.Small())
	if strings.Contains(JobLine(r), "missing") {
		t.Fatal("a complete job named missing ranks")
	}
	r.MissingRanks, r.DeclaredWorldSize = []int{5, 6}, 16
	if got := JobLine(r); !strings.Contains(got, " (5-6 missing of 16) · ") {
		t.Fatalf("job line %q", got)
	}
}
