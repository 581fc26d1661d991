package model

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
)

// The kernel ↔ launch link: a GPU event (kernel, memcpy, memset, GPU
// annotation) is launched by the runtime call of the same rank with the same
// correlation id (Events.Corr). Link computes that join once, as a column
// beside the others; Launches reads it.

// Link sets the launch column: for every GPU event with a correlation id,
// the row of the runtime call of its rank with the same id (the last such
// row when several share it), else -1. Merge links its output; Link again
// after changing the Rank, Kind or Corr of rows in place (Sort and Set drop
// the column, so Launches computes it until then).
//
// Large event sets are linked in parallel, in parts that end where a run of
// equal ranks ends (rows link only within their run, so the column is the
// same as linked in one pass).
func (ev *Events) Link() {
	out := make([]int32, ev.Len())
	var wg sync.WaitGroup
	for _, p := range rankParts(ev.Rank, runtime.GOMAXPROCS(0)) {
		wg.Go(func() { ev.linkRange(out[p[0]:p[1]], p[0], p[1]) })
	}
	wg.Wait()
	ev.launch = out
}

// linkPartMin is the fewest rows worth a goroutine of Link.
const linkPartMin = 32 << 10

// rankParts cuts rows [0, len(rank)) into at most n parts of about equal
// size, each ending at a change of rank (or the end), none shorter than
// linkPartMin unless it is the only one.
func rankParts(rank []int32, n int) [][2]int {
	size := max(len(rank)/max(n, 1), linkPartMin)
	var parts [][2]int
	for lo := 0; lo < len(rank); {
		hi := min(lo+size, len(rank))
		for hi < len(rank) && rank[hi] == rank[hi-1] {
			hi++
		}
		parts = append(parts, [2]int{lo, hi})
		lo = hi
	}
	return parts
}

// Linked reports whether the launch column is set for every row.
func (ev *Events) Linked() bool { return ev.launch != nil && len(ev.launch) == ev.Len() }

// Launches returns the launch column (see Link) of rows [lo, hi): entry
// i-lo is the launching row of row i, -1 when none. Rows are linked only to
// rows of the same run of equal ranks inside [lo, hi), so pass whole ranks
// (RankRange). The slice is the column itself once linked (do not modify
// it), else computed for the call.
func (ev *Events) Launches(lo, hi int) []int32 {
	if ev.Linked() {
		return ev.launch[lo:hi:hi]
	}
	out := make([]int32, hi-lo)
	ev.linkRange(out, lo, hi)
	return out
}

// linkRange links rows [lo, hi) into dst (entry i-lo for row i), one run of
// equal ranks at a time.
func (ev *Events) linkRange(dst []int32, lo, hi int) {
	var rt []int32
	for a := lo; a < hi; {
		b := a + 1
		for b < hi && ev.Rank[b] == ev.Rank[a] {
			b++
		}
		rt = ev.runtimeByCorr(rt[:0], a, b)
		ev.linkRun(dst[a-lo:b-lo], a, b, rt)
		a = b
	}
}

// runtimeByCorr appends the runtime rows of [lo, hi) that carry a
// correlation id to rt, ordered by id and, among equal ids, by row.
func (ev *Events) runtimeByCorr(rt []int32, lo, hi int) []int32 {
	sorted := true
	for i := lo; i < hi; i++ {
		if ev.Kind[i] != KindRuntime || ev.Corr[i] < 0 {
			continue
		}
		if n := len(rt); n > 0 && ev.Corr[rt[n-1]] > ev.Corr[i] {
			sorted = false
		}
		rt = append(rt, int32(i))
	}
	if !sorted {
		sortByCorr(rt, ev.Corr)
	}
	return rt
}

// linkRun sets dst[i-lo] for the rows [lo, hi) of one rank; rt is that
// rank's runtime rows by correlation id.
func (ev *Events) linkRun(dst []int32, lo, hi int, rt []int32) {
	at := 0 // where the last search ended: ids mostly rise with the rows
	for i := lo; i < hi; i++ {
		dst[i-lo] = -1
		if c := ev.Corr[i]; c >= 0 && ev.Kind[i].OnGPU() {
			at = afterCorr(rt, ev.Corr, c, at)
			if at > 0 && ev.Corr[rt[at-1]] == c {
				dst[i-lo] = rt[at-1]
			}
		}
	}
}

// afterCorr is the first index of rt (sorted by corr) whose id is above c,
// searched outwards from the index hint in growing steps and then by
// halves: the answer of lastWithCorr's search, in a few probes when the
// ids asked for rise slowly.
func afterCorr(rt []int32, corr []int64, c int64, hint int) int {
	lo, hi := 0, len(rt) // the answer lies in [lo, hi]
	if hint = min(max(hint, 0), len(rt)); hint < len(rt) && corr[rt[hint]] <= c {
		lo = hint + 1
		for step := 1; lo < hi; step *= 2 {
			if p := hint + step; p < hi && corr[rt[p]] <= c {
				lo = p + 1
			} else {
				hi = min(p, hi)
				break
			}
		}
	} else if hint > 0 {
		hi = hint
		for step := 1; hi > lo; step *= 2 {
			if p := hint - step; p >= lo && corr[rt[p]] > c {
				hi = p
			} else {
				lo = max(p+1, lo)
				break
			}
		}
	}
	return aboveCorr(rt, corr, c, lo, hi)
}

// aboveCorr is the first index in [lo, hi] of rt (sorted by corr) whose id
// is above c, by halves, when the answer lies in [lo, hi].
func aboveCorr(rt []int32, corr []int64, c int64, lo, hi int) int {
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if corr[rt[m]] <= c {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// lastWithCorr returns the last row of rt (sorted by corr) whose id is c,
// or -1.
func lastWithCorr(rt []int32, corr []int64, c int64) int32 {
	lo := aboveCorr(rt, corr, c, 0, len(rt))
	if lo == 0 || corr[rt[lo-1]] != c {
		return -1
	}
	return rt[lo-1]
}

// sortByCorr orders rows by correlation id, stably (equal ids keep row order).
func sortByCorr(rows []int32, corr []int64) {
	slices.SortStableFunc(rows, func(a, b int32) int { return cmp.Compare(corr[a], corr[b]) })
}
