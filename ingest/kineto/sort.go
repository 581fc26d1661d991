package kineto

import (
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// sortKey is what model.Events.Sort orders one row by, and the row.
type sortKey struct {
	start, dur int64
	rank, row  int32
	kind       model.Kind
}

// compareKeys is model.Events.Sort's order (rank, start, the longer first,
// kind), then the row (so the order is total).
func compareKeys(a, b sortKey) int {
	switch {
	case a.rank != b.rank:
		return cmpInt(a.rank < b.rank)
	case a.start != b.start:
		return cmpInt(a.start < b.start)
	case a.dur != b.dur:
		return cmpInt(a.dur > b.dur)
	case a.kind != b.kind:
		return cmpInt(a.kind < b.kind)
	case a.row != b.row:
		return cmpInt(a.row < b.row)
	}
	return 0
}

func cmpInt(less bool) int {
	if less {
		return -1
	}
	return 1
}

// sortEvents sorts ev as ev.Sort does, with each row's keys side by side
// in one slice instead of read column by column through the permutation
// at every compare, and not at all when the rows are in order already.
// ev must not be linked (model.Events.Link): a file's events never are.
func sortEvents(ev *model.Events) {
	if ev.Len() == 0 {
		ev.Sort() // (its columns empty, not nil)
		return
	}
	keys := make([]sortKey, ev.Len())
	for i := range keys {
		keys[i] = sortKey{ev.Start[i], ev.Dur[i], ev.Rank[i], int32(i), ev.Kind[i]}
	}
	if slices.IsSortedFunc(keys, compareKeys) {
		return
	}
	slices.SortStableFunc(keys, compareKeys)
	perm := make([]int32, len(keys))
	for i, k := range keys {
		perm[i] = k.row
	}
	ev.Rank, ev.Stream, ev.Kind = gather(ev.Rank, perm), gather(ev.Stream, perm), gather(ev.Kind, perm)
	ev.Name, ev.Start, ev.Dur = gather(ev.Name, perm), gather(ev.Start, perm), gather(ev.Dur, perm)
	ev.Corr, ev.Iter, ev.Micro = gather(ev.Corr, perm), gather(ev.Iter, perm), gather(ev.Micro, perm)
	ev.Coll = gather(ev.Coll, perm)
}

func gather[T any](s []T, perm []int32) []T {
	out := make([]T, len(s))
	for i, p := range perm {
		out[i] = s[p]
	}
	return out
}
