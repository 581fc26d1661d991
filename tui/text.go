package tui

import "charm.land/lipgloss/v2"

// truncate cuts a styled line to w cells (w <= 0: no limit).
func truncate(s string, w int) string {
	if w <= 0 || lipgloss.Width(s) <= w {
		return s
	}
	return lipgloss.NewStyle().MaxWidth(w).Render(s)
}
