package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/tui/events"
)

// Model is the whole TUI: a tab bar, the active pane and a help line.
type Model struct {
	c      *Common
	panes  []Component
	active int
	load   Loader
	ctx    context.Context
	cancel context.CancelFunc // stops the load when the user quits
	send   func(tea.Msg)
	prog   ProgressMsg
	err    error
	help   bool // the ? screen is up
	helpAt int  // its first line
	base   *baseline
	data   *events.Data // for NewLoaded
}

// Option configures a Model.
type Option func(*Model)

// WithBaseline adds the Regressions pane: the run against base (named
// name), as 'tpptrace compare' gates it.
func WithBaseline(base *result.Result, name string) Option {
	return func(m *Model) { m.base = &baseline{res: base, name: name} }
}

// New returns a model that loads its result with load when it starts.
func New(load Loader, opts ...Option) *Model {
	ctx, cancel := context.WithCancel(context.Background())
	m := &Model{c: &Common{Styles: DefaultStyles(), Keys: DefaultKeys()}, load: load, ctx: ctx, cancel: cancel}
	for _, o := range opts {
		o(m)
	}
	return m
}

// NewLoaded returns a model showing res (and the events WithEvents gives).
func NewLoaded(res *result.Result, opts ...Option) *Model {
	m := New(nil, opts...)
	m.setResult(res, m.data)
	return m
}

// WithEvents gives NewLoaded the events of res's traces.
func WithEvents(data *events.Data) Option { return func(m *Model) { m.data = data } }

func (m *Model) setResult(res *result.Result, data *events.Data) {
	m.c.Res, m.c.Data = res, data
	m.panes = []Component{&overview{c: m.c}, newTimeline(m.c), newRanks(m.c), &findings{c: m.c}}
	if res != nil && res.WhatIf != nil {
		m.panes = append(m.panes, &whatif{c: m.c})
	}
	if m.base != nil {
		m.panes = append(m.panes, newRegressions(m.c, m.base))
	}
	m.resize()
}

// Init starts loading.
func (m *Model) Init() tea.Cmd {
	if m.load == nil {
		return nil
	}
	return loadCmd(m.ctx, m.load, m.send)
}

// Update handles keys, window sizes and loading messages.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case ProgressMsg:
		m.prog = msg
	case LoadedMsg:
		m.setResult(msg.Res, msg.Data)
	case LoadErrMsg:
		if m.ctx.Err() == nil { // not the load the user cancelled
			m.err = msg.Err
		}
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.MouseMsg:
		return m, m.mouse(msg)
	case JumpMsg, SelectRankMsg:
		return m, m.jump(msg)
	}
	return m, nil
}

// mouse hands the active pane a mouse message with Y counted from its top.
func (m *Model) mouse(msg tea.MouseMsg) tea.Cmd {
	if m.panes == nil || m.help {
		return nil
	}
	ms := msg.Mouse()
	ms.Y -= 2
	var fwd tea.Msg
	switch msg.(type) {
	case tea.MouseWheelMsg:
		fwd = tea.MouseWheelMsg(ms)
	case tea.MouseClickMsg:
		fwd = tea.MouseClickMsg(ms)
	case tea.MouseReleaseMsg:
		fwd = tea.MouseReleaseMsg(ms)
	default:
		return nil
	}
	var cmd tea.Cmd
	m.panes[m.active], cmd = m.panes[m.active].Update(fwd)
	return cmd
}

// jump shows the timeline pane and hands it the message.
func (m *Model) jump(msg tea.Msg) tea.Cmd {
	for i, p := range m.panes {
		if _, ok := p.(*timeline); ok {
			m.active = i
			var cmd tea.Cmd
			m.panes[i], cmd = p.Update(msg)
			return cmd
		}
	}
	return nil
}

// capturer is a pane that takes typed keys for itself (a search field).
type capturer interface{ Capturing() bool }

func (m *Model) capturing() bool {
	if m.panes == nil {
		return false
	}
	c, ok := m.panes[m.active].(capturer)
	return ok && c.Capturing()
}

func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.capturing() && k.String() != "ctrl+c":
		var cmd tea.Cmd
		m.panes[m.active], cmd = m.panes[m.active].Update(k)
		return cmd
	case key.Matches(k, m.c.Keys.Quit):
		m.cancel()
		return tea.Quit
	case m.panes == nil:
		return nil
	case key.Matches(k, m.c.Keys.Help):
		m.help, m.helpAt = !m.help, 0
	case m.help && key.Matches(k, m.c.Keys.Down):
		m.helpAt = min(m.helpAt+1, max(len(helpLines(m.c))-(m.c.Height-3), 0))
	case m.help && key.Matches(k, m.c.Keys.Up):
		m.helpAt = max(m.helpAt-1, 0)
	case m.help:
		m.help = !key.Matches(k, m.c.Keys.Clear)
	case key.Matches(k, m.c.Keys.Next):
		m.active = (m.active + 1) % len(m.panes)
	case key.Matches(k, m.c.Keys.Prev):
		m.active = (m.active + len(m.panes) - 1) % len(m.panes)
	default:
		var cmd tea.Cmd
		m.panes[m.active], cmd = m.panes[m.active].Update(k)
		return cmd
	}
	return nil
}

func (m *Model) resize() {
	for _, p := range m.panes {
		p.SetSize(m.c.Width, max(m.c.Height-3, 1))
	}
}

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

// Render is the screen as text (for tests and the view).
func (m *Model) Render() string {
	switch {
	case m.err != nil:
		return fmt.Sprintf("tpptrace: %s\n\npress q to quit", vocab.Safe(m.err.Error()))
	case m.panes == nil:
		return m.loadingLine()
	case m.tooSmall():
		return m.sizeNotice()
	case m.help:
		return m.tabs() + "\n\n" + pad(helpView(m.c, m.helpAt), m.c.Height-3) + "\n" + truncate(m.c.Styles.Dim.Render("j/k scroll · ? or esc closes the help · q quit"), m.c.Width)
	}
	p := m.panes[m.active]
	help := m.c.Styles.Dim.Render(strings.Join(nonEmpty("tab pane · ? keys · q quit", p.HelpLine()), " · "))
	return m.tabs() + "\n\n" + pad(p.View(), m.c.Height-3) + "\n" + truncate(help, m.c.Width)
}

// loadingLine is the loading screen: the bytes read with their share and
// a bar, then the analysis step running; q cancels.
func (m *Model) loadingLine() string {
	p, line := m.prog, "loading traces…"
	switch {
	case p.Step != "":
		line = fmt.Sprintf("analysing: %s (step %d of %d)  %s", p.Step, p.Index, p.Steps, bar(p.Index, p.Steps, 20))
	case p.Total > 0:
		line = fmt.Sprintf("reading traces… %d %%  %s  %d/%d MB", p.Done*100/p.Total, bar(int(p.Done>>10), int(p.Total>>10), 20), p.Done>>20, p.Total>>20)
	}
	return truncate(line, m.c.Width) + "\n\n" + truncate(m.c.Styles.Dim.Render("q cancels"), m.c.Width)
}

func bar(done, total, width int) string {
	n := 0
	if total > 0 {
		n = min(done*width/total, width)
	}
	return "[" + strings.Repeat("█", n) + strings.Repeat("·", width-n) + "]"
}

// MinWidth and MinHeight are the smallest terminal the panes lay out in.
const MinWidth, MinHeight = 50, 12

func (m *Model) tooSmall() bool {
	return m.c.Width > 0 && m.c.Height > 0 && (m.c.Width < MinWidth || m.c.Height < MinHeight)
}

func (m *Model) sizeNotice() string {
	lines := []string{fmt.Sprintf("terminal %d×%d is too small", m.c.Width, m.c.Height),
		fmt.Sprintf("tpptrace tui needs %d×%d", MinWidth, MinHeight), "enlarge it, or press q"}
	return clip(lines, m.c.Width, m.c.Height)
}

func (m *Model) tabs() string {
	var parts []string
	for i, p := range m.panes {
		st := m.c.Styles.Tab
		if i == m.active {
			st = m.c.Styles.ActiveTab
		}
		parts = append(parts, st.Render(" "+p.Title()+" "))
	}
	return truncate(strings.Join(parts, " "), m.c.Width)
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// Run runs the TUI on the terminal until the user quits.
// Quitting cancels the load; so does cancelling ctx.
func Run(ctx context.Context, load Loader, opts ...Option) error {
	m := New(load, opts...)
	stop := context.AfterFunc(ctx, m.cancel)
	defer stop()
	defer m.cancel()
	p := tea.NewProgram(m, tea.WithContext(ctx))
	m.send = p.Send
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// pad adds empty lines so that the help line stays at the bottom.
func pad(s string, lines int) string {
	if n := strings.Count(s, "\n") + 1; n < lines {
		s += strings.Repeat("\n", lines-n)
	}
	return s
}
