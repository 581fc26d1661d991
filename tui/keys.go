package tui

import "charm.land/bubbles/v2/key"

// KeyMap is every key the TUI answers to.
type KeyMap struct {
	Next, Prev, Up, Down, Left, Right, ZoomIn, ZoomOut, Sort, Quit key.Binding
}

// DefaultKeys is the default key map.
func DefaultKeys() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Next:    b("tab", "next pane", "tab"),
		Prev:    b("shift+tab", "previous pane", "shift+tab"),
		Up:      b("k/↑", "up", "k", "up"),
		Down:    b("j/↓", "down", "j", "down"),
		Left:    b("h/←", "pan left", "h", "left"),
		Right:   b("l/→", "pan right", "l", "right"),
		ZoomIn:  b("+", "zoom in", "+", "="),
		ZoomOut: b("-", "zoom out", "-"),
		Sort:    b("s", "sort by next column", "s"),
		Quit:    b("q", "quit", "q", "ctrl+c"),
	}
}
