package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/units"
)

// Model is the whole TUI: a tab bar, the active pane and a help line.
type Model struct {
	c      *Common
	panes  []Component
	active int
	load   Loader
	send   func(tea.Msg)
	prog   ProgressMsg
	err    error
}

// New returns a model that loads its result with load when it starts.
func New(load Loader) *Model {
	return &Model{c: &Common{Styles: DefaultStyles(), Keys: DefaultKeys()}, load: load}
}

// NewLoaded returns a model showing res.
func NewLoaded(res *result.Result) *Model {
	m := New(nil)
	m.setResult(res)
	return m
}

func (m *Model) setResult(res *result.Result) {
	m.c.Res = res
	m.panes = []Component{&overview{c: m.c}, newTimeline(m.c), newRanks(m.c), &findings{c: m.c}}
	if res != nil && res.WhatIf != nil {
		m.panes = append(m.panes, &whatif{c: m.c})
	}
	m.resize()
}

// Init starts loading.
func (m *Model) Init() tea.Cmd {
	if m.load == nil {
		return nil
	}
	return loadCmd(m.load, m.send)
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
		m.setResult(msg.Res)
	case LoadErrMsg:
		m.err = msg.Err
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.c.Keys.Quit):
		return tea.Quit
	case m.panes == nil:
		return nil
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
	return v
}

// Render is the screen as text (for tests and the view).
func (m *Model) Render() string {
	switch {
	case m.err != nil:
		return fmt.Sprintf("tpptrace: %s\n\npress q to quit", units.Safe(m.err.Error()))
	case m.panes == nil:
		return m.loadingLine()
	}
	p := m.panes[m.active]
	help := m.c.Styles.Dim.Render(strings.Join(nonEmpty("tab/shift+tab pane", p.HelpLine(), "q quit"), " · "))
	return m.tabs() + "\n\n" + pad(p.View(), m.c.Height-3) + "\n" + truncate(help, m.c.Width)
}

func (m *Model) loadingLine() string {
	if m.prog.Total <= 0 {
		return "loading traces…"
	}
	return fmt.Sprintf("loading traces… %d %%", m.prog.Done*100/m.prog.Total)
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
func Run(load Loader, opts ...tea.ProgramOption) error {
	m := New(load)
	p := tea.NewProgram(m, opts...)
	m.send = p.Send
	_, err := p.Run()
	return err
}

// pad adds empty lines so that the help line stays at the bottom.
func pad(s string, lines int) string {
	if n := strings.Count(s, "\n") + 1; n < lines {
		s += strings.Repeat("\n", lines-n)
	}
	return s
}
