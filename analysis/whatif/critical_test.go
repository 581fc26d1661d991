package whatif

import (
	"math"
	"testing"
)

// The critical path of twoWorkers runs through worker 1's late start
// (0.5 s delay), its 2 s compute and the pair's 0.25 s transfer.
func TestCriticalPath(t *testing.T) {
	g := twoWorkers(t)
	ps := g.CriticalPaths(g.Measured())
	c := ps[0].ByCategory
	want := map[string]float64{"launch delay": 0.5, "compute stage 1": 2, "comm forward-send": 0.25}
	sum := 0.0
	for k, v := range c {
		sum += v
		if math.Abs(v-want[k]) > 1e-12 {
			t.Errorf("%s = %g, want %g (all %v)", k, v, want[k], c)
		}
	}
	if math.Abs(sum-2.75) > 1e-12 {
		t.Errorf("path sums to %g, want the step 2.75", sum)
	}
}
