package nsys

import (
	"cmp"

	"github.com/tpptrace/tpptrace/model"
)

// sortEvents puts a report's events in the order Events.Sort gives (the
// stable sort by rank, start, longest first, kind), by merging the sorted
// runs reading leaves (about one per table) instead of sorting from
// scratch. Merge then only concatenates the sorted reports.
func sortEvents(ev *model.Events) {
	runs := sortedRuns(ev)
	if len(runs) <= 2 {
		return // one run: already sorted
	}
	perm := make([]int32, ev.Len())
	for i := range perm {
		perm[i] = int32(i)
	}
	permute(ev, mergeRuns(ev, perm, runs))
}

// permute reorders the events by perm column by column (an Append per
// row was half of a sort), each column gathered into the array of the
// column of its type gathered before it. The events are not linked yet.
func permute(ev *model.Events, perm []int32) {
	var i32 []int32
	var i64 []int64
	var kinds []model.Kind
	ev.Rank, i32 = gather(ev.Rank, i32, perm)
	ev.Stream, i32 = gather(ev.Stream, i32, perm)
	ev.Name, i32 = gather(ev.Name, i32, perm)
	ev.Iter, i32 = gather(ev.Iter, i32, perm)
	ev.Micro, i32 = gather(ev.Micro, i32, perm)
	ev.Coll, _ = gather(ev.Coll, i32, perm)
	ev.Kind, _ = gather(ev.Kind, kinds, perm)
	ev.Start, i64 = gather(ev.Start, i64, perm)
	ev.Dur, i64 = gather(ev.Dur, i64, perm)
	ev.Corr, _ = gather(ev.Corr, i64, perm)
}

// gather returns s reordered by perm, in buf when it is large enough, and
// s's array for the next column.
func gather[T any](s, buf []T, perm []int32) (out, spare []T) {
	if cap(buf) < len(perm) {
		buf = make([]T, len(perm))
	}
	buf = buf[:len(perm)]
	for i, p := range perm {
		buf[i] = s[p]
	}
	return buf, s[:0]
}

// eventOrder is the order of Events.Sort, comparing no more columns than
// it needs to (the rank is mostly one, the start mostly decides).
func eventOrder(ev *model.Events, a, b int32) int {
	if ra, rb := ev.Rank[a], ev.Rank[b]; ra != rb {
		return cmp.Compare(ra, rb)
	}
	if sa, sb := ev.Start[a], ev.Start[b]; sa != sb {
		return cmp.Compare(sa, sb)
	}
	return cmp.Or(cmp.Compare(ev.Dur[b], ev.Dur[a]), cmp.Compare(ev.Kind[a], ev.Kind[b]))
}

// sortedRuns returns the bounds of the maximal sorted runs: 0, ..., Len.
func sortedRuns(ev *model.Events) []int {
	bounds := []int{0}
	for i := 1; i < ev.Len(); i++ {
		if eventOrder(ev, int32(i-1), int32(i)) > 0 {
			bounds = append(bounds, i)
		}
	}
	return append(bounds, ev.Len())
}

// mergeRuns merges neighbouring runs of perm pairwise until one is left;
// on ties the earlier run's row comes first, so the result is the stable
// sort's.
func mergeRuns(ev *model.Events, perm []int32, bounds []int) []int32 {
	buf := make([]int32, len(perm))
	for len(bounds) > 2 {
		next := []int{0}
		for i := 0; i+1 < len(bounds); i += 2 {
			lo, mid := bounds[i], bounds[i+1]
			hi := mid
			if i+2 < len(bounds) {
				hi = bounds[i+2]
			}
			merge2(ev, perm[lo:mid], perm[mid:hi], buf[lo:hi])
			next = append(next, hi)
		}
		perm, buf, bounds = buf, perm, next
	}
	return perm
}

// merge2 merges the sorted a and b into out, a's rows first on ties.
func merge2(ev *model.Events, a, b, out []int32) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if eventOrder(ev, b[j], a[i]) < 0 {
			out[k], j = b[j], j+1
		} else {
			out[k], i = a[i], i+1
		}
		k++
	}
	k += copy(out[k:], a[i:])
	copy(out[k:], b[j:])
}
