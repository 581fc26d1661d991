// Package palette is the one colour scheme of tpptrace: every view (plots,
// the HTML report, the Perfetto export, the TUI) colours a timeline
// category the same way.
//
// The colours are the Okabe–Ito set, which stays distinguishable under the
// common forms of colour blindness. Exposed communication (nothing computes
// under it) uses the full colour of its axis; overlapped communication uses
// a pale tint of the same hue, so "how much is hidden" reads at a glance.
// The bubble is vermillion; the part of it in which a pipeline send/recv
// waits for its neighbour (pp_wait) is a pale vermillion, bubble-like and
// apart from the purple PP transfer.
package palette

import (
	"fmt"
	"image/color"
	"strings"
)

// Timeline categories, as in result.Segment.Category.
const (
	Compute    = "compute"
	TP         = "tp"
	PP         = "pp"
	DP         = "dp"
	CP         = "cp"
	EP         = "ep"
	TPExposed  = "tp_exposed"
	PPExposed  = "pp_exposed"
	DPExposed  = "dp_exposed"
	CPExposed  = "cp_exposed"
	EPExposed  = "ep_exposed"
	A2A        = "a2a" // all-to-all that is not expert parallelism (embedding exchange)
	A2AExposed = "a2a_exposed"
	Memcpy     = "memcpy"
	PPWait     = "pp_wait" // a PP send/recv waiting for its neighbour: part of the bubble
	Bubble     = "bubble"
	Idle       = "idle"
)

// Categories lists every category in legend order.
var Categories = []string{Compute, TPExposed, TP, PPExposed, PP, DPExposed, DP,
	CPExposed, CP, EPExposed, EP, A2AExposed, A2A, Memcpy, PPWait, Bubble, Idle}

// Okabe–Ito colours.
var (
	blue       = color.RGBA{0x00, 0x72, 0xB2, 0xFF}
	orange     = color.RGBA{0xE6, 0x9F, 0x00, 0xFF}
	purple     = color.RGBA{0xCC, 0x79, 0xA7, 0xFF}
	green      = color.RGBA{0x00, 0x9E, 0x73, 0xFF}
	skyBlue    = color.RGBA{0x56, 0xB4, 0xE9, 0xFF}
	yellow     = color.RGBA{0xF0, 0xE4, 0x42, 0xFF}
	vermillion = color.RGBA{0xD5, 0x5E, 0x00, 0xFF}
	black      = color.RGBA{0x00, 0x00, 0x00, 0xFF}
	lightGrey  = color.RGBA{0xDD, 0xDD, 0xDD, 0xFF}
	darkGrey   = color.RGBA{0x55, 0x55, 0x55, 0xFF}
	indigo     = color.RGBA{0x33, 0x22, 0x88, 0xFF} // Paul Tol's indigo: A2A, past the eight Okabe–Ito colours
)

var axisColour = map[string]color.RGBA{TP: orange, PP: purple, DP: green, CP: skyBlue, EP: darkGrey, A2A: indigo}

// Color returns the colour of a category; unknown categories are black.
func Color(category string) color.RGBA {
	switch category {
	case Compute:
		return blue
	case Memcpy:
		return yellow
	case Bubble:
		return vermillion
	case PPWait:
		return Tint(vermillion)
	case Idle:
		return lightGrey
	}
	if axis, ok := strings.CutSuffix(category, "_exposed"); ok {
		if c, ok := axisColour[axis]; ok {
			return c
		}
	}
	if c, ok := axisColour[category]; ok {
		return Tint(c)
	}
	return black
}

// Tint mixes c halfway with white: the overlapped form of a colour.
func Tint(c color.RGBA) color.RGBA {
	mix := func(v uint8) uint8 { return uint8((int(v) + 255) / 2) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xFF}
}

// Hex returns the colour of a category as "#rrggbb", for HTML, Perfetto and
// terminal styles.
func Hex(category string) string {
	c := Color(category)
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

// Label returns the human name of a category: "TP exposed", "TP overlapped".
func Label(category string) string {
	switch category {
	case Compute, Memcpy, Bubble, Idle:
		return category
	case PPWait:
		return "bubble: PP wait"
	}
	if axis, ok := strings.CutSuffix(category, "_exposed"); ok {
		return strings.ToUpper(axis) + " exposed"
	}
	return strings.ToUpper(category) + " overlapped"
}

// Exposed returns the exposed category of an axis ("TP" → "tp_exposed").
func Exposed(axis string) string { return strings.ToLower(axis) + "_exposed" }

// Known reports whether category is one of Categories.
func Known(category string) bool {
	for _, c := range Categories {
		if c == category {
			return true
		}
	}
	return false
}

// Axis returns the communication axis of a category ("tp_exposed", "tp" →
// "TP"; "pp_wait" → "PP"), or "" for compute, copies, bubble and idle.
func Axis(category string) string {
	switch category {
	case Compute, Memcpy, Bubble, Idle, "":
		return ""
	case PPWait:
		return "PP"
	}
	return strings.ToUpper(strings.TrimSuffix(category, "_exposed"))
}

// Overlapped reports whether category is communication running under
// compute ("tp", "pp", ...), which views draw as both.
func Overlapped(category string) bool {
	_, ok := axisColour[category]
	return ok
}

// BubbleLike reports whether category is time the pipeline loses: the
// bubble itself or a PP send/recv waiting for its neighbour.
func BubbleLike(category string) bool { return category == Bubble || category == PPWait }
