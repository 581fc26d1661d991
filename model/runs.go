package model

import (
	"cmp"
	"slices"
)

// sortRuns sorts events that are the concatenation of runs (rows
// bounds[i] to bounds[i+1]), as Sort does. When every run is sorted and no
// two runs share a rank, which is what merging per-rank parts gives, the
// runs are only put in rank order (and left alone when they already are):
// no event is compared with another run's, so the order equals Sort's,
// stable sort included. Otherwise it falls back to Sort.
func (ev *Events) sortRuns(bounds []int) {
	type run struct {
		lo, hi      int
		first, last int32 // ranks of the first and last rows
	}
	var runs []run
	for i := 0; i+1 < len(bounds); i++ {
		lo, hi := bounds[i], bounds[i+1]
		if lo == hi {
			continue
		}
		if !ev.sortedRange(lo, hi) {
			ev.Sort()
			return
		}
		runs = append(runs, run{lo, hi, ev.Rank[lo], ev.Rank[hi-1]})
	}
	slices.SortStableFunc(runs, func(a, b run) int { return cmp.Compare(a.first, b.first) })
	inPlace := true
	for i := 1; i < len(runs); i++ {
		if runs[i].first <= runs[i-1].last {
			ev.Sort() // two runs share a rank
			return
		}
		inPlace = inPlace && runs[i].lo == runs[i-1].hi
	}
	if inPlace {
		return
	}
	perm := make([]int32, 0, ev.Len())
	for _, r := range runs {
		for i := r.lo; i < r.hi; i++ {
			perm = append(perm, int32(i))
		}
	}
	ev.permute(perm)
}

// rankOrder returns the non-empty parts in the order sortRuns puts their
// runs when every part is sorted and no two share a rank, so that their
// concatenation is already sorted (no permutation of the merged columns);
// ok is false otherwise, and sortRuns must then order the concatenation.
// Empty parts come last.
func rankOrder(parts []*Events) (ordered []*Events, ok bool) {
	var empty []*Events // kept, last, so that ConcatEvents releases them too
	for _, p := range parts {
		if p.Len() == 0 {
			empty = append(empty, p)
			continue
		}
		if !p.sortedRange(0, p.Len()) {
			return nil, false
		}
		ordered = append(ordered, p)
	}
	slices.SortStableFunc(ordered, func(a, b *Events) int { return cmp.Compare(a.Rank[0], b.Rank[0]) })
	for i := 1; i < len(ordered); i++ {
		if ordered[i].Rank[0] <= ordered[i-1].Rank[ordered[i-1].Len()-1] {
			return nil, false
		}
	}
	return append(ordered, empty...), true
}

// sortedRange reports whether rows [lo, hi) are in Sort's order.
func (ev *Events) sortedRange(lo, hi int) bool {
	for i := lo + 1; i < hi; i++ {
		if ev.compare(i-1, i) > 0 {
			return false
		}
	}
	return true
}

// compare orders rows a and b as Sort does: rank, start, longer first, kind.
func (ev *Events) compare(a, b int) int {
	return cmp.Or(cmp.Compare(ev.Rank[a], ev.Rank[b]), cmp.Compare(ev.Start[a], ev.Start[b]),
		cmp.Compare(ev.Dur[b], ev.Dur[a]), cmp.Compare(ev.Kind[a], ev.Kind[b]))
}
