package nsys

import (
	"math/rand/v2"
	"reflect"
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
		for i := range ev.Len() { // every column told apart
			ev.Stream[i], ev.Name[i], ev.Iter[i], ev.Micro[i], ev.Coll[i] = int32(i), int32(i+1), int32(i+2), int32(i+3), int32(i+4)
		}
		want := ev
		want.Rank, want.Corr, want.Stream, want.Name = slices.Clone(ev.Rank), slices.Clone(ev.Corr), slices.Clone(ev.Stream), slices.Clone(ev.Name)
		want.Start, want.Dur, want.Kind = slices.Clone(ev.Start), slices.Clone(ev.Dur), slices.Clone(ev.Kind)
		want.Iter, want.Micro, want.Coll = slices.Clone(ev.Iter), slices.Clone(ev.Micro), slices.Clone(ev.Coll)
		want.Sort()
		got := ev
		sortEvents(&got)
		if !slices.Equal(got.Corr, want.Corr) {
			t.Fatalf("%d runs: order differs from Events.Sort:\n got %v\nwant %v", runs, got.Corr, want.Corr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d runs: columns differ from Events.Sort's", runs)
		}
	}
}

// TestPermuteKnowsEveryColumn: permute gathers the ten columns of
// model.Events; a new column must be added there.
func TestPermuteKnowsEveryColumn(t *testing.T) {
	if n := reflect.TypeFor[model.Events]().NumField(); n != 11 {
		t.Fatalf("model.Events has %d fields, permute knows 10 columns and launch", n)
	}
}
