package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/palette"
)

// Styles are the TUI's lipgloss styles.
type Styles struct {
	Title, Tab, ActiveTab, Header, Dim, Bad, Selected lipgloss.Style
	Category                                          map[string]lipgloss.Style
}

// DefaultStyles uses the shared palette so that the TUI and the plots agree.
func DefaultStyles() Styles {
	s := Styles{
		Title:     lipgloss.NewStyle().Bold(true),
		Tab:       lipgloss.NewStyle().Faint(true),
		ActiveTab: lipgloss.NewStyle().Bold(true).Reverse(true),
		Header:    lipgloss.NewStyle().Bold(true),
		Dim:       lipgloss.NewStyle().Faint(true),
		Bad:       lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#D55E00")),
		Selected:  lipgloss.NewStyle().Reverse(true),
		Category:  map[string]lipgloss.Style{},
	}
	for _, c := range vocab.Categories {
		s.Category[c] = lipgloss.NewStyle().Foreground(asColor(palette.Color(c)))
	}
	return s
}

func asColor(c color.RGBA) color.Color { return c }

// glyphs draw a timeline category in one cell: full blocks for work,
// capitals for exposed communication, lower case for overlapped, a dot for
// the bubble, whether a PP send/recv waits in it for the neighbour
// (pp_wait, pale) or nothing runs (vermillion).
var glyphs = map[string]rune{
	vocab.CatCompute: '█', vocab.CatTPExposed: 'T', vocab.CatTP: 't', vocab.CatPPExposed: 'P', vocab.CatPP: 'p',
	vocab.CatDPExposed: 'D', vocab.CatDP: 'd', vocab.CatCPExposed: 'C', vocab.CatCP: 'c', vocab.CatEPExposed: 'E',
	vocab.CatEP: 'e', vocab.CatA2AExposed: 'A', vocab.CatA2A: 'a', vocab.CatMemcpy: 'm', vocab.CatPPWait: '·', vocab.CatBubble: '·', vocab.CatIdle: ' ',
}
