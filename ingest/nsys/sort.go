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
	perm = mergeRuns(ev, perm, runs)
	out := model.Events{}
	out.Grow(len(perm))
	for _, i := range perm {
		out.Append(ev.At(int(i)))
	}
	*ev = out
}

// eventOrder is the order of Events.Sort.
func eventOrder(ev *model.Events, a, b int32) int {
	return cmp.Or(cmp.Compare(ev.Rank[a], ev.Rank[b]), cmp.Compare(ev.Start[a], ev.Start[b]),
		cmp.Compare(ev.Dur[b], ev.Dur[a]), cmp.Compare(ev.Kind[a], ev.Kind[b]))
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
