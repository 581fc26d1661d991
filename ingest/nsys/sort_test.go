package nsys

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// TestSortEventsIsSort: merging the sorted runs gives Events.Sort's order,
// ties included, for events made of a few runs and for random ones.
func TestSortEventsIsSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, runs := range []int{1, 2, 3, 7, 400} {
		var ev model.Events
		for r := range runs {
			start := int64(0)
			for i := range 1 + rng.IntN(50) {
				start += int64(rng.IntN(3)) // ties within and across runs
				e := model.NewEvent(int32(rng.IntN(2)), model.Kind(rng.IntN(3)), int32(r), start, int64(rng.IntN(2)))
				e.Corr = int64(r*1000 + i) // tells equal rows apart
				ev.Append(e)
			}
		}
		want := ev
		want.Rank, want.Corr = slices.Clone(ev.Rank), slices.Clone(ev.Corr)
		want.Start, want.Dur, want.Kind = slices.Clone(ev.Start), slices.Clone(ev.Dur), slices.Clone(ev.Kind)
		want.Sort()
		got := ev
		sortEvents(&got)
		if !slices.Equal(got.Corr, want.Corr) {
			t.Fatalf("%d runs: order differs from Events.Sort:\n got %v\nwant %v", runs, got.Corr, want.Corr)
		}
	}
}
