package clock

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// TestByEndEqualsOneStableSort: sorting each rank's run apart (events in
// rank order) and the fallback for events out of rank order both give the
// order of one stable sort by rank, then end, ties included.
func TestByEndEqualsOneStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, ordered := range []bool{true, false} {
		var ev model.Events
		for i := range 3000 {
			r := int32(i / 50)
			if !ordered {
				r = int32(rng.IntN(60))
			}
			e := model.NewEvent(r, model.KindComm, 1, int64(rng.IntN(400)), int64(rng.IntN(50)))
			e.Coll = int32(rng.IntN(3) - 1) // some kernels carry no collective
			ev.Append(e)
		}
		tr := &model.Trace{Events: ev}
		var want []int32
		for i := range ev.Len() {
			if ev.Coll[i] >= 0 {
				want = append(want, int32(i))
			}
		}
		slices.SortStableFunc(want, func(a, b int32) int {
			return cmp.Or(cmp.Compare(ev.Rank[a], ev.Rank[b]), cmp.Compare(ev.Start[a]+ev.Dur[a], ev.Start[b]+ev.Dur[b]))
		})
		if got := byEnd(tr); !slices.Equal(got, want) {
			t.Fatalf("ordered %v: byEnd differs from one stable sort", ordered)
		}
	}
	if runs := rankRuns([]int32{0, 0, 1, 1, 2}, []int32{0, 1, 2, 3, 4}); !slices.Equal(runs, []int{0, 2, 4, 5}) {
		t.Fatalf("runs %v", runs)
	}
	if runs := rankRuns([]int32{1, 0}, []int32{0, 1}); runs != nil {
		t.Fatalf("ranks out of order gave runs %v", runs)
	}
}
