package tui

import "fmt"

// helpView lists every key of the key map by the pane it acts in, from
// line top on, in two columns when the terminal is wide enough.
func helpView(c *Common, top int) string {
	lines := helpLines(c)
	h := max(c.Height-3, 1)
	lines = lines[min(top, max(len(lines)-h, 0)):]
	if len(lines) > h && c.Width >= 100 {
		return twoColumns(lines, h, c.Width/2)
	}
	return clip(lines, c.Width, h)
}

func helpLines(c *Common) []string {
	var lines []string
	for _, g := range c.Keys.helpGroups() {
		lines = append(lines, c.Styles.Header.Render(g.title))
		for _, b := range g.keys {
			h := b.Help()
			lines = append(lines, fmt.Sprintf("  %-12s %s", h.Key, h.Desc))
		}
	}
	return lines
}

func twoColumns(lines []string, h, w int) string {
	split := min((len(lines)+1)/2, h)
	for split < len(lines) && split > 0 && lines[split][0] == ' ' { // start the right column on a title
		split--
	}
	left, right := lines[:split], lines[split:]
	out := make([]string, max(len(left), len(right)))
	for i := range out {
		l := ""
		if i < len(left) {
			l = truncate(left[i], w-1)
		}
		out[i] = fmt.Sprintf("%-*s", w+len(l)-displayWidth(l), l)
		if i < len(right) {
			out[i] += right[i]
		}
	}
	return clip(out, 2*w, h)
}
