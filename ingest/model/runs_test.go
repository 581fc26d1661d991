package model

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortRunsEqualsSort checks the merge's run ordering against the plain
// stable sort on random parts: sorted and disjoint (the fast path), sorted
// but sharing a rank, and unsorted (the fallbacks).
func TestSortRunsEqualsSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		var ev Events
		bounds := []int{0}
		ranks := rng.Perm(12)
		for p := range 1 + rng.IntN(6) {
			part := randomPart(rng, int32(ranks[p]), trial%3 != 0, trial%5 == 0)
			for i := 0; i < part.Len(); i++ {
				ev.Append(part.At(i))
			}
			bounds = append(bounds, ev.Len())
		}
		want := cloneEvents(&ev)
		want.Sort()
		ev.sortRuns(bounds)
		if !slices.Equal(ev.Start, want.Start) || !slices.Equal(ev.Rank, want.Rank) || !slices.Equal(ev.Name, want.Name) {
			t.Fatalf("trial %d: sortRuns differs from Sort", trial)
		}
	}
}

// randomPart is one rank's events with ties in start and duration, sorted
// when asked; shared adds events of rank 99 to every part.
func randomPart(rng *rand.Rand, rank int32, sorted, shared bool) *Events {
	var ev Events
	for i := range rng.IntN(40) {
		r := rank
		if shared && i%7 == 0 {
			r = 99
		}
		e := NewEvent(r, Kind(rng.IntN(4)), int32(rng.IntN(1000)), int64(rng.IntN(20)), int64(rng.IntN(3)))
		ev.Append(e)
	}
	if sorted {
		ev.Sort()
	}
	return &ev
}

func cloneEvents(ev *Events) *Events {
	out := &Events{}
	for i := 0; i < ev.Len(); i++ {
		out.Append(ev.At(i))
	}
	return out
}
