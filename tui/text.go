package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// truncate cuts a styled line to w cells, ending it with an ellipsis when
// cut (w <= 0: no limit).
func truncate(s string, w int) string {
	if w <= 0 || lipgloss.Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// wrap breaks text into lines of at most w cells, the first prefixed with
// lead and the rest indented as deep (w <= 0: one line).
func wrap(lead, text string, w int) []string {
	indent := strings.Repeat(" ", lipgloss.Width(lead))
	if w <= len(lead)+10 {
		return []string{lead + text}
	}
	var lines []string
	line := lead
	for _, word := range strings.Fields(text) {
		if lipgloss.Width(line)+1+lipgloss.Width(word) > w && strings.TrimSpace(line) != strings.TrimSpace(lead) {
			lines = append(lines, line)
			line = indent
		}
		if line != lead && line != indent {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}

func displayWidth(s string) int { return lipgloss.Width(s) }
