package tui

import "charm.land/bubbles/v2/key"

// KeyMap is every key the TUI answers to; the help screen (?) and
// docs/tui.md list them from here.
type KeyMap struct {
	Next, Prev, Up, Down, Left, Right, ZoomIn, ZoomOut, Sort, Quit key.Binding

	StepPrev, StepNext, Fit, ZoomEvent, EventPrev, EventNext, Peer key.Binding
	Search, SearchNext, SearchPrev, Jump, Clear, Help              key.Binding
	Expand, ExpandAll, Filter, CritPath                            key.Binding
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
		ZoomIn:  b("+/=", "zoom in", "+", "="),
		ZoomOut: b("-", "zoom out", "-"),
		Sort:    b("s", "sort by next column", "s"),
		Quit:    b("q/ctrl+c", "quit (cancels loading)", "q", "ctrl+c"),

		StepPrev:   b("[", "previous step", "["),
		StepNext:   b("]", "next step", "]"),
		Fit:        b("0", "fit the whole step", "0"),
		ZoomEvent:  b("z", "zoom to the selected event", "z"),
		EventPrev:  b("H/,", "previous event on the lane", "H", ","),
		EventNext:  b("L/.", "next event on the lane", "L", "."),
		Peer:       b("p", "jump to the next member of the collective", "p"),
		Search:     b("/", "search event names (regex)", "/"),
		SearchNext: b("n", "next match", "n"),
		SearchPrev: b("N", "previous match", "N"),
		Jump:       b("enter", "show the finding or the rank on the timeline", "enter"),
		Clear:      b("esc", "clear the search and the lane filter", "esc"),
		Help:       b("?", "show or hide every key", "?"),
		Expand:     b("e", "show or hide the rank's stream sub-lanes", "e"),
		ExpandAll:  b("E", "show or hide every rank's stream sub-lanes", "E"),
		Filter:     b("f", "filter lanes: ranks (0-3,12), a stage (s2) or an axis's sub-lanes (TP)", "f"),
		CritPath:   b("c", "show or hide the what-if critical path (a Result made with --whatif)", "c"),
	}
}

// helpGroups are the key map's bindings by the pane they act in.
func (k KeyMap) helpGroups() []helpGroup {
	return []helpGroup{
		{"everywhere", []key.Binding{k.Next, k.Prev, k.Help, k.Quit}},
		{"timeline", []key.Binding{k.Up, k.Down, k.Left, k.Right, k.ZoomIn, k.ZoomOut, k.Fit, k.ZoomEvent,
			k.StepPrev, k.StepNext, k.EventPrev, k.EventNext, k.Peer, k.Expand, k.ExpandAll, k.Filter, k.Search, k.SearchNext, k.SearchPrev, k.CritPath, k.Clear}},
		{"mouse (timeline)", []key.Binding{
			key.NewBinding(key.WithHelp("wheel", "zoom in/out at the pointer")),
			key.NewBinding(key.WithHelp("shift+wheel", "pan")),
			key.NewBinding(key.WithHelp("click", "select the lane and the event under the pointer")),
			key.NewBinding(key.WithHelp("drag", "zoom to the range dragged"))}},
		{"ranks", []key.Binding{k.Up, k.Down, k.Sort, k.Jump}},
		{"findings", []key.Binding{k.Up, k.Down, k.Jump}},
	}
}

type helpGroup struct {
	title string
	keys  []key.Binding
}
