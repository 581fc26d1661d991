package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/tui/events"
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
	Data          *events.Data // per-event data; nil for a result file
}

// ProgressMsg reports loading progress: Done of Total bytes read while
// reading (Total 0 before it is known), then the analysis step running
// (Step, the Index-th of Steps).
type ProgressMsg struct {
	Done, Total  int64
	Step         string
	Index, Steps int
}

// LoadedMsg carries the analysis result and, when the inputs were traces or
// a dataset, their events (nil for a result file).
type LoadedMsg struct {
	Res  *result.Result
	Data *events.Data
}

// LoadErrMsg reports that loading failed.
type LoadErrMsg struct{ Err error }

// Loader ingests and analyses the inputs until ctx is cancelled; progress
// may be called from any goroutine.
type Loader func(ctx context.Context, progress func(ProgressMsg)) (*result.Result, *events.Data, error)

// loadCmd runs load off the UI loop; it captures its inputs.
func loadCmd(ctx context.Context, load Loader, send func(tea.Msg)) tea.Cmd {
	return func() tea.Msg {
		res, data, err := load(ctx, func(p ProgressMsg) {
			if send != nil {
				send(p)
			}
		})
		if err != nil {
			return LoadErrMsg{err}
		}
		return LoadedMsg{res, data}
	}
}
