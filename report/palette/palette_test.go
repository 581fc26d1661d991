package palette

import (
	"image/color"
	"math"
	"testing"

	"github.com/tpptrace/tpptrace/model/vocab"
)

func TestEveryCategoryHasDistinctColour(t *testing.T) {
	seen := map[string]string{}
	for _, c := range vocab.Categories {
		h := Hex(c)
		if h == "#000000" {
			t.Errorf("%s has no colour", c)
		}
		if prev, ok := seen[h]; ok {
			t.Errorf("%s and %s share %s", c, prev, h)
		}
		seen[h] = c
	}
}

func TestOverlappedIsPaleOfExposed(t *testing.T) {
	for _, axis := range []string{vocab.CatTP, vocab.CatPP, vocab.CatDP} {
		e, o := Color(axis+"_exposed"), Color(axis)
		if luminance(o) <= luminance(e) {
			t.Errorf("%s overlapped %v is not paler than exposed %v", axis, o, e)
		}
	}
}

func luminance(c interface{ RGBA() (r, g, b, a uint32) }) float64 {
	r, g, b, _ := c.RGBA()
	return 0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)
}

func TestHexAndLabel(t *testing.T) {
	cases := []struct{ cat, hex, label string }{
		{vocab.CatCompute, "#0072b2", "compute"},
		{vocab.CatTPExposed, "#e69f00", "TP exposed"},
		{vocab.CatTP, "#f2cf7f", "TP overlapped"},
		{vocab.CatBubble, "#d55e00", "bubble"},
		{vocab.CatPPWait, "#eaae7f", "bubble: PP wait"},
		{"nonsense", "#000000", "NONSENSE overlapped"},
	}
	for _, c := range cases {
		if got := Hex(c.cat); got != c.hex {
			t.Errorf("Hex(%q) = %s, want %s", c.cat, got, c.hex)
		}
		if got := vocab.CategoryLabel(c.cat); got != c.label {
			t.Errorf("CategoryLabel(%q) = %q, want %q", c.cat, got, c.label)
		}
	}
}

// The main categories stay apart for a deuteranope and a protanope:
// simulate both (Machado et al. 2009, severity 1) and compare distances.
func TestDistinctUnderColourBlindness(t *testing.T) {
	main := []string{vocab.CatCompute, vocab.CatTPExposed, vocab.CatPPExposed, vocab.CatDPExposed, vocab.CatCPExposed, vocab.CatEPExposed, vocab.CatA2AExposed, vocab.CatMemcpy, vocab.CatPPWait, vocab.CatBubble, vocab.CatIdle}
	sims := map[string][3][3]float64{
		"deuteranopia": {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
		"protanopia":   {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
	}
	for name, m := range sims {
		for i, a := range main {
			for _, b := range main[i+1:] {
				if d := dist(simulate(m, Color(a)), simulate(m, Color(b))); d < 45 {
					t.Errorf("%s: %s and %s are only %.0f apart", name, a, b, d)
				}
			}
		}
	}
}

func simulate(m [3][3]float64, c color.RGBA) [3]float64 {
	in := [3]float64{toLinear(c.R), toLinear(c.G), toLinear(c.B)}
	var out [3]float64
	for i := range out {
		v := m[i][0]*in[0] + m[i][1]*in[1] + m[i][2]*in[2]
		out[i] = toSRGB(min(max(v, 0), 1))
	}
	return out
}

func toLinear(v uint8) float64 {
	x := float64(v) / 255
	if x <= 0.04045 {
		return x / 12.92
	}
	return math.Pow((x+0.055)/1.055, 2.4)
}

func toSRGB(v float64) float64 {
	if v <= 0.0031308 {
		return 255 * 12.92 * v
	}
	return 255 * (1.055*math.Pow(v, 1/2.4) - 0.055)
}

func dist(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}
