package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// Component is one pane.
type Component interface {
	Update(msg tea.Msg) (Component, tea.Cmd)
	View() string
	SetSize(width, height int)
	Title() string
	HelpLine() string
}

// Common is what every pane shares.
type Common struct {
	Width, Height int
	Styles        Styles
	Keys          KeyMap
	Res           *result.Result
}

// ProgressMsg reports loading progress in bytes.
type ProgressMsg struct{ Done, Total int64 }

// LoadedMsg carries the analysis result.
type LoadedMsg struct{ Res *result.Result }

// LoadErrMsg reports that loading failed.
type LoadErrMsg struct{ Err error }

// Loader ingests and analyses the inputs; progress may be called from any goroutine.
type Loader func(progress func(done, total int64)) (*result.Result, error)

// loadCmd runs load off the UI loop; it captures its inputs.
func loadCmd(load Loader, send func(tea.Msg)) tea.Cmd {
	return func() tea.Msg {
		res, err := load(func(done, total int64) {
			if send != nil {
				send(ProgressMsg{done, total})
			}
		})
		if err != nil {
			return LoadErrMsg{err}
		}
		return LoadedMsg{res}
	}
}
