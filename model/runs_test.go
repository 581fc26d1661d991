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

// TestRankOrderEqualsSortRuns checks that concatenating the parts in
// rankOrder's order gives what sortRuns gives on their concatenation, and
// that rankOrder declines exactly when a part is unsorted or two share a rank.
func TestRankOrderEqualsSortRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	fast := 0
	for trial := range 300 {
		var parts []*Events
		ranks := rng.Perm(12)
		for p := range 1 + rng.IntN(6) {
			parts = append(parts, randomPart(rng, int32(ranks[p]), trial%3 != 0, trial%5 == 0))
		}
		want, bounds := ConcatEvents(parts, false), []int{0}
		for _, p := range parts {
			bounds = append(bounds, bounds[len(bounds)-1]+p.Len())
		}
		want.sortRuns(bounds)
		ordered, ok := rankOrder(parts)
		if !ok {
			if trial%3 != 0 && trial%5 != 0 {
				t.Fatalf("trial %d: sorted disjoint parts declined", trial)
			}
			continue
		}
		fast++
		got := ConcatEvents(ordered, false)
		if len(ordered) != len(parts) || !slices.Equal(got.Start, want.Start) || !slices.Equal(got.Rank, want.Rank) ||
			!slices.Equal(got.Name, want.Name) || !slices.Equal(got.Kind, want.Kind) {
			t.Fatalf("trial %d: rankOrder's concatenation differs from sortRuns", trial)
		}
	}
	if fast < 100 {
		t.Fatalf("only %d trials took the fast path", fast)
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

// TestMergeNormalPart checks that merging a Merge output again with skip
// records returns what the full merge gives, and that a grown part is
// merged in full.
func TestMergeNormalPart(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var parts []*Trace
	for r := range 4 {
		p := &Trace{}
		p.AddRank(Rank{Rank: int32(r), LocalGPU: -1, Coord: UnknownCoord})
		ev := randomPart(rng, int32(r), false, false)
		for i := 0; i < ev.Len(); i++ {
			e := ev.At(i)
			e.Name = p.Names.Intern(string(rune('a' + e.Name%7)))
			p.AddEvent(e)
		}
		parts = append(parts, p)
	}
	m, err := Merge(parts...)
	if err != nil {
		t.Fatal(err)
	}
	plain := *m
	plain.merged = mergeMark{}
	skips := &Trace{Skipped: []Skip{{Source: "x", Offset: -1, Reason: "r", Count: 1}}}
	want, _ := Merge(&plain, skips)
	got, _ := Merge(m, skips)
	if got != m || want == &plain {
		t.Fatal("the normal part was copied, or the plain one was not")
	}
	if !slices.Equal(got.Events.Start, want.Events.Start) || !slices.Equal(got.Events.Name, want.Events.Name) ||
		!slices.Equal(got.Names.All(), want.Names.All()) || len(got.Skipped) != len(want.Skipped) {
		t.Fatal("the fast merge differs from the full merge")
	}
	m.AddEvent(NewEvent(0, KindCompute, 0, -5, 1)) // grown, out of order: merged in full, sorted
	again, _ := Merge(m)
	if again == m || again.Events.Start[0] != -5 {
		t.Fatal("a grown part was taken as normal")
	}
}
