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
// apart from the purple PP transfer. The categories' names and labels are
// the vocabulary's (model/vocab).
package palette

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/tpptrace/tpptrace/model/vocab"
)

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

var axisColour = map[string]color.RGBA{vocab.CatTP: orange, vocab.CatPP: purple, vocab.CatDP: green, vocab.CatCP: skyBlue,
	vocab.CatEP: darkGrey, vocab.CatA2A: indigo}

// Color returns the colour of a category; unknown categories are black.
func Color(category string) color.RGBA {
	switch category {
	case vocab.CatCompute:
		return blue
	case vocab.CatMemcpy:
		return yellow
	case vocab.CatBubble:
		return vermillion
	case vocab.CatPPWait:
		return Tint(vermillion)
	case vocab.CatIdle:
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
