package plots

import (
	"math"

	"github.com/tpptrace/tpptrace/report/units"
	"gonum.org/v1/plot"
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
			t.Label = units.Bytes(int64(v))
		}
		ticks = append(ticks, t)
	}
	return ticks
}

func pow(x, y float64) float64 { return math.Pow(x, y) }
