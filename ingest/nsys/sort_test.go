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
		want := cloneEvents(ev)
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

// TestSortEventsNested: NVTX-like rows, each range written when it ends
// (after the ranges it holds, some more than nearRuns' reach), sort as
// Events.Sort does.
func TestSortEventsNested(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, fan := range []int{2, 5, 40} {
		var ev model.Events
		var nest func(start int64, depth int) int64
		nest = func(start int64, depth int) int64 {
			end := start + int64(rng.IntN(2))
			for range rng.IntN(fan) * min(depth, 1) {
				end = nest(end, depth-1)
			}
			e := model.NewEvent(int32(rng.IntN(2)), model.Kind(rng.IntN(2)), 0, start, end-start)
			e.Corr = int64(ev.Len())
			ev.Append(e)
			return end + int64(rng.IntN(2))
		}
		start := int64(0)
		for range 20 {
			start = nest(start, 3)
		}
		want := cloneEvents(ev)
		want.Sort()
		sortEvents(&ev)
		if !slices.Equal(ev.Corr, want.Corr) {
			t.Fatalf("fan-out %d: order differs from Events.Sort:\n got %v\nwant %v", fan, ev.Corr, want.Corr)
		}
	}
}

func cloneEvents(ev model.Events) model.Events {
	c := ev
	c.Rank, c.Corr, c.Stream, c.Name = slices.Clone(ev.Rank), slices.Clone(ev.Corr), slices.Clone(ev.Stream), slices.Clone(ev.Name)
	c.Start, c.Dur, c.Kind = slices.Clone(ev.Start), slices.Clone(ev.Dur), slices.Clone(ev.Kind)
	c.Iter, c.Micro, c.Coll = slices.Clone(ev.Iter), slices.Clone(ev.Micro), slices.Clone(ev.Coll)
	return c
}

// TestPermuteKnowsEveryColumn: permute gathers the ten columns of
// model.Events; a new column must be added there.
func TestPermuteKnowsEveryColumn(t *testing.T) {
	if n := reflect.TypeFor[model.Events]().NumField(); n != 11 {
		t.Fatalf("model.Events has %d fields, permute knows 10 columns and launch", n)
	}
}
