package model

import (
	"cmp"
	"reflect"
	"slices"
	"testing"
)

// sortedByColumns is Sort as it was before its keys were put side by side:
// a stable sort of the rows' permutation, reading the columns at every
// compare, applied whether or not the rows were in order.
func sortedByColumns(ev Events) (Events, []int32) {
	perm := make([]int32, ev.Len())
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortStableFunc(perm, func(a, b int32) int {
		return cmp.Or(cmp.Compare(ev.Rank[a], ev.Rank[b]), cmp.Compare(ev.Start[a], ev.Start[b]),
			cmp.Compare(ev.Dur[b], ev.Dur[a]), cmp.Compare(ev.Kind[a], ev.Kind[b]))
	})
	ev.permute(perm)
	return ev, perm
}

// eventsFrom makes events of b, six bytes a row, with many ties.
func eventsFrom(b []byte) Events {
	var ev Events
	for i := 0; len(b) >= 6; b, i = b[6:], i+1 {
		e := NewEvent(int32(b[0]%3), Kind(b[3]%4), int32(b[5]), int64(b[1]%16), int64(b[2]%4))
		e.Stream, e.Corr, e.Iter, e.Micro, e.Coll = int32(b[4]), int64(i), int32(i%7), int32(i%3), int32(i)
		ev.Append(e)
	}
	return ev
}

// checkSort: Sort and SortOrder give the column-by-column stable sort's
// rows and permutation, every column, ties included.
func checkSort(t *testing.T, b []byte) {
	got := eventsFrom(b)
	want, perm := sortedByColumns(eventsFrom(b))
	if order := got.SortOrder(); !slices.Equal(order, perm) {
		t.Fatalf("SortOrder %v, want %v", order, perm)
	}
	got.Sort()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Sort:\n%+v\nwant\n%+v", got, want)
	}
}

var sortSeeds = [][]byte{nil, {1, 2, 3, 4, 5, 6},
	{0, 5, 1, 0, 0, 0, 0, 5, 2, 0, 0, 1, 0, 5, 2, 1, 0, 2, 0, 5, 2, 1, 0, 3, 0, 4, 0, 0, 0, 4, 1, 1, 1, 1, 1, 5},
	[]byte("sorted? not at all, with ties: aaaaaabbbbbbaaaaaa012345012345"),
	{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 2, 1, 0, 0, 0, 0, 3}, // in order already
	{0, 5, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0}, // out of order by one ns: the order check on the columns must see it
	{0, 5, 1, 0, 0, 0, 0, 5, 2, 0, 0, 0}, // a longer range after a shorter one at the same start
	{1, 5, 1, 2, 0, 0, 1, 5, 1, 1, 0, 0}} // a lower kind after a higher one, all else equal

func TestSortKeys(t *testing.T) {
	for _, b := range sortSeeds {
		checkSort(t, b)
	}
}

// FuzzSortKeys: Sort orders rows as the column-by-column sort does.
func FuzzSortKeys(f *testing.F) {
	for _, b := range sortSeeds {
		f.Add(b)
	}
	f.Fuzz(checkSort)
}
