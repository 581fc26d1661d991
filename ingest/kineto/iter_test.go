package kineto

import (
	"cmp"
	"math/rand"
	"slices"
	"testing"
)

// TestCursorsEqualSearch: the cursors that remember the last step and
// runtime row found give what a fresh search gives, for queries in any
// order, steps that touch or overlap and repeated correlation ids.
func TestCursorsEqualSearch(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 200; round++ {
		var steps []step
		for s, n := int64(0), 0; n < 1+rng.Intn(8); n++ {
			s += int64(rng.Intn(20)) - 3
			steps = append(steps, step{s, s + int64(rng.Intn(30)), int32(n)})
		}
		slices.SortFunc(steps, func(a, b step) int { return cmp.Compare(a.start, b.start) })
		corr := make([]int64, 50)
		rt := make([]int32, 0, 50)
		for i := range corr {
			corr[i] = int64(rng.Intn(40)) - 2
			if rng.Intn(2) == 0 {
				rt = append(rt, int32(i))
			}
		}
		slices.SortFunc(rt, func(a, b int32) int { return cmp.Compare(corr[a], corr[b]) })
		sc, cc := stepCursor{steps: steps}, corrCursor{rt: rt, corr: corr}
		for q := 0; q < 100; q++ {
			v := int64(rng.Intn(120)) - 10
			if rng.Intn(3) > 0 {
				v = int64(q) // mostly rising, as in a file
			}
			fresh := stepCursor{steps: steps}
			if got, want := sc.stepAt(v), fresh.stepAt(v); got != want {
				t.Fatalf("steps %v, t %d: cursor %d, search %d", steps, v, got, want)
			}
			c := v%45 - 3
			if got, want := cc.find(c), findCorr(rt, corr, c); got != want {
				t.Fatalf("corr %d: cursor %d, search %d", c, got, want)
			}
		}
	}
}
