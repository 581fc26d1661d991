package nsys

import (
	"cmp"
	"sync"

	"github.com/tpptrace/tpptrace/model"
)

// sortEvents puts a report's events in the order Events.Sort gives (the
// stable sort by rank, start, longest first, kind), by merging sorted runs
// instead of sorting from scratch: a report's tables come in start order,
// NVTX ranges nearly so (a range is written when it ends, after the ranges
// it holds). Merge then only concatenates the sorted reports.
func sortEvents(ev *model.Events) {
	n := ev.Len()
	if n < 2 || sorted(ev) {
		return
	}
	s := sortPool.Get().(*sortScratch)
	defer sortPool.Put(s)
	perm := grown(s.perm, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	s.bounds = nearRuns(ev, perm, s.bounds[:0])
	s.buf = grown(s.buf, n)
	mergeRuns(ev, perm, s.buf, s.bounds, &s.stack)
	s.perm = perm
	permute(ev, perm, s)
}

// sortScratch is what a sort needs besides the events, reused from report
// to report (one export per rank: thousands of sorts of small reports).
type sortScratch struct {
	perm, buf, i32 []int32
	bounds, stack  []int
	i64            []int64
	kinds          []model.Kind
}

var sortPool = sync.Pool{New: func() any { return new(sortScratch) }}

// grown is s with length n, its array reused when large enough.
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// sorted reports whether the events are in order already.
func sorted(ev *model.Events) bool {
	for i := 1; i < ev.Len(); i++ {
		if eventOrder(ev, int32(i-1), int32(i)) > 0 {
			return false
		}
	}
	return true
}

// reach is how far back nearRuns moves an event into its run: an NVTX
// range written after the few ranges it holds joins their run, one that
// holds more (a step's range) starts a run of its own.
const reach = 32

// nearRuns sorts perm (the identity) into runs, each event moved back by
// insertion into the current run when it belongs at most reach places
// back, else starting a run, and appends the runs' bounds (0, ..., Len)
// to bounds. An event goes after the ones it ties with: the runs hold the
// stable sort's order.
func nearRuns(ev *model.Events, perm []int32, bounds []int) []int {
	bounds = append(bounds, 0)
	lo := 0
	for i := 1; i < len(perm); i++ {
		e := perm[i]
		if eventOrder(ev, perm[i-1], e) <= 0 {
			continue
		}
		j := i - 1
		for j > lo && i-j < reach && eventOrder(ev, perm[j-1], e) > 0 {
			j--
		}
		if j > lo && eventOrder(ev, perm[j-1], e) > 0 {
			bounds, lo = append(bounds, i), i // too far back: a new run
			continue
		}
		copy(perm[j+1:i+1], perm[j:i])
		perm[j] = e
	}
	return append(bounds, len(perm))
}

// mergeRuns merges neighbouring runs of perm until one is left, the runs
// kept on a stack whose top two are merged while the lower is no longer
// than the upper (so a long run is merged about once, not once per level
// of a merge tree); on ties the earlier run's row comes first, so the
// result is the stable sort's. buf is as long as perm.
func mergeRuns(ev *model.Events, perm, buf []int32, bounds []int, stack *[]int) {
	st := (*stack)[:0] // run starts; the top run ends at the next run's start
	for i := 0; i+1 < len(bounds); i++ {
		st = append(st, bounds[i])
		end := bounds[i+1]
		for len(st) >= 2 && st[len(st)-1]-st[len(st)-2] <= end-st[len(st)-1] {
			mergeAt(ev, perm, buf, st[len(st)-2], st[len(st)-1], end)
			st = st[:len(st)-1]
		}
	}
	for len(st) >= 2 {
		mergeAt(ev, perm, buf, st[len(st)-2], st[len(st)-1], len(perm))
		st = st[:len(st)-1]
	}
	*stack = st
}

// mergeAt merges the sorted perm[lo:mid] and perm[mid:hi] in place,
// through buf.
func mergeAt(ev *model.Events, perm, buf []int32, lo, mid, hi int) {
	if eventOrder(ev, perm[mid-1], perm[mid]) <= 0 {
		return // in order already
	}
	merge2(ev, perm[lo:mid], perm[mid:hi], buf[lo:hi])
	copy(perm[lo:hi], buf[lo:hi])
}

// permute reorders the events by perm in place, column by column (an
// Append per row was half of a sort), each gathered into s's array of its
// type and copied back. The events are not linked yet.
func permute(ev *model.Events, perm []int32, s *sortScratch) {
	s.i32 = gather(ev.Rank, s.i32, perm)
	s.i32 = gather(ev.Stream, s.i32, perm)
	s.i32 = gather(ev.Name, s.i32, perm)
	s.i32 = gather(ev.Iter, s.i32, perm)
	s.i32 = gather(ev.Micro, s.i32, perm)
	s.i32 = gather(ev.Coll, s.i32, perm)
	s.kinds = gather(ev.Kind, s.kinds, perm)
	s.i64 = gather(ev.Start, s.i64, perm)
	s.i64 = gather(ev.Dur, s.i64, perm)
	s.i64 = gather(ev.Corr, s.i64, perm)
}

// gather reorders col by perm in place, through buf (grown as needed and
// returned for the next column).
func gather[T any](col, buf []T, perm []int32) []T {
	buf = grown(buf, len(perm))
	for i, p := range perm {
		buf[i] = col[p]
	}
	copy(col, buf)
	return buf
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
