package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/tpptrace/tpptrace/model/vocab"
)

// byteTicks puts labelled ticks at powers of four bytes (1 KiB, 4 KiB, …)
// and minor ticks at the powers of two between them.
type byteTicks struct{}

func (byteTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(math.Log2(max(lo, 1))); e <= math.Ceil(math.Log2(max(hi, 1))); e++ {
		v := math.Exp2(e)
		if v < lo || v > hi {
			continue
		}
		t := plot.Tick{Value: v}
		if int(e)%2 == 0 {
			t.Label = vocab.Bytes(int64(v))
		}
		ticks = append(ticks, t)
	}
	return ticks
}

func pow(x, y float64) float64 { return math.Pow(x, y) }

// logTicks labels powers of ten, and 2× and 5× them when the range spans
// less than two decades, so a narrow log axis still has labels.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= lo {
		return nil
	}
	dense := hi/lo < 100
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 3, 4, 5, 6, 7, 8, 9} {
			v := m * math.Pow(10, e)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || dense && (m == 2 || m == 5) {
				t.Label = strconv.FormatFloat(v, 'g', 4, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// widen makes a log axis span at least a factor of 8 around [lo, hi].
func widen(a *plot.Axis, lo, hi float64) {
	if lo <= 0 || hi <= 0 {
		return
	}
	if f := math.Sqrt(8 * lo / hi); f > 1 {
		lo, hi = lo/f, hi*f
	}
	a.Min, a.Max = lo, hi
}
