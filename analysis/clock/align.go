package clock

import (
	"cmp"
	"fmt"
	"github.com/tpptrace/tpptrace/analysis/par"
	"github.com/tpptrace/tpptrace/analysis/result"
	"math"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// edge is a pair of ranks that shared instances: the median of
// end(b) − end(a), i.e. an estimate of offset(b) − offset(a).
type edge struct {
	a, b   int32
	d      float64
	n      int
	weight float64
}

// Align estimates offsets from instances: per pair of ranks, the median of
// their end differences; then a robust (Huber) weighted least-squares fit of
// one offset per rank over those pairs, anchored at rank 0 (the lowest rank
// when rank 0 is absent). Ranks joined to it by no chain of instances keep
// offset 0, are listed in Unaligned and named in a warning.
func Align(t *model.Trace, inst []Instance) Offsets {
	o := Offsets{ByRank: map[int32]int64{}, Method: "none"}
	for _, r := range t.Ranks {
		o.ByRank[r.Rank] = 0
	}
	if len(t.Ranks) == 0 {
		return o
	}
	edges := pairEdges(t, inst)
	o.setOffsets(t, edges)
	o.densify()
	o.Matched = len(inst)
	if len(edges) > 0 {
		o.Method = "collective-end"
	}
	o.ResidualNs = residual(t, inst, o)
	return o
}

// setOffsets solves the pair graph and stores each reached rank's offset;
// the others are Unaligned, named in one warning.
func (o *Offsets) setOffsets(t *model.Trace, edges []edge) {
	ref := t.Ranks[0].Rank
	x, reached := solve(ref, edges)
	for _, r := range t.Ranks {
		if !reached[r.Rank] {
			o.Unaligned = append(o.Unaligned, r.Rank)
			continue
		}
		o.ByRank[r.Rank] = int64(math.Round(x[r.Rank]))
	}
	if len(o.Unaligned) > 0 {
		slices.Sort(o.Unaligned)
		o.Warnings = append(o.Warnings, unalignedWarning(o.Unaligned, ref))
	}
}

// unalignedWarning: "clocks of ranks 16–63 could not be aligned: no chain
// of matched collectives or transfers joins them to rank 0; offsets left at 0".
func unalignedWarning(ranks []int32, ref int32) string {
	if len(ranks) == 1 {
		return fmt.Sprintf("clock of rank %d could not be aligned: no chain of matched collectives or transfers joins it to rank %d; offset left at 0", ranks[0], ref)
	}
	return fmt.Sprintf("clocks of ranks %s could not be aligned: no chain of matched collectives or transfers joins them to rank %d; offsets left at 0", Ranges(ranks), ref)
}

// Ranges writes sorted ranks with runs collapsed: "16–63, 70".
func Ranges(rs []int32) string {
	ints := make([]int, len(rs))
	for i, r := range rs {
		ints[i] = int(r)
	}
	return result.RankSpans(ints)
}

// pairEdges collects, per (lowest member, other member), the end differences
// of every instance and reduces them to their median.
func pairEdges(t *model.Trace, inst []Instance) []edge {
	pairs, lists := pairDiffs(t, inst)
	out := make([]edge, len(pairs))
	for i, k := range pairs {
		out[i] = edge{a: k[0], b: k[1], n: len(lists[i]), weight: float64(len(lists[i]))}
	}
	par.Blocks(len(out), 64, func(lo, hi int) { // the lists are disjoint parts of one array: sorted apart
		for i := lo; i < hi; i++ {
			out[i].d = float64(median(lists[i]))
		}
	})
	slices.SortFunc(out, func(x, y edge) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
	return out
}

// pairDiffs lists, per (lowest member, other member) pair (in first-seen
// order), the end differences end(other) − end(lowest) of every instance,
// in instance order, all in one backing array. The pairs are looked up once
// per member; the second pass reads the pair of each from the first.
func pairDiffs(t *model.Trace, inst []Instance) (pairs [][2]int32, lists [][]int64) {
	ev := &t.Events
	pid := map[uint64]int32{}
	var count []int
	total := 0
	for _, in := range inst {
		total += len(in.Events) - 1
	}
	which := make([]int32, 0, total)
	for _, in := range inst {
		r0 := ev.Rank[in.Events[0]]
		for _, e := range in.Events[1:] {
			k := uint64(uint32(r0))<<32 | uint64(uint32(ev.Rank[e]))
			p, ok := pid[k]
			if !ok {
				p = int32(len(pairs))
				pid[k] = p
				pairs = append(pairs, [2]int32{r0, ev.Rank[e]})
				count = append(count, 0)
			}
			count[p]++
			which = append(which, p)
		}
	}
	buf := make([]int64, total)
	lists = make([][]int64, len(pairs))
	off := 0
	for p, c := range count {
		lists[p] = buf[off : off : off+c]
		off += c
	}
	j := 0
	for _, in := range inst {
		e0 := in.Events[0]
		end0 := ev.Start[e0] + ev.Dur[e0]
		for _, e := range in.Events[1:] {
			p := which[j]
			j++
			lists[p] = append(lists[p], ev.Start[e]+ev.Dur[e]-end0)
		}
	}
	return pairs, lists
}

// median returns the middle value (the lower middle for even lengths,
// averaged with the upper one). It reorders v (a selection, not a sort).
func median(v []int64) int64 {
	n := len(v)
	if n == 0 {
		return 0
	}
	hi := nth(v, n/2)
	if n%2 == 1 {
		return hi
	}
	lo := slices.Max(v[:n/2]) // the selection leaves the n/2 smallest before it
	return lo + (hi-lo)/2
}

// nth reorders v so that v[k] is its k-th smallest value, nothing before it
// larger and nothing after it smaller, and returns it (quickselect with a
// three-way partition: runs of equal values cost nothing extra).
func nth(v []int64, k int) int64 {
	w, off := v, 0
	for len(w) > 16 {
		p := median3(w[0], w[len(w)/2], w[len(w)-1])
		lt, i, gt := 0, 0, len(w)
		for i < gt {
			switch {
			case w[i] < p:
				w[lt], w[i] = w[i], w[lt]
				lt++
				i++
			case w[i] > p:
				gt--
				w[i], w[gt] = w[gt], w[i]
			default:
				i++
			}
		}
		switch {
		case k-off < lt:
			w = w[:lt]
		case k-off >= gt:
			w, off = w[gt:], off+gt
		default:
			return v[k]
		}
	}
	slices.Sort(w)
	return v[k]
}

// median3 is the middle one of a, b and c.
func median3(a, b, c int64) int64 {
	return max(min(a, b), min(max(a, b), c))
}

// residual is the median over matched members of |aligned end − the
// instance's mean aligned end|.
func residual(t *model.Trace, inst []Instance, o Offsets) int64 {
	n := 0
	for _, in := range inst {
		n += len(in.Events)
	}
	res := make([]int64, 0, n)
	var buf []float64
	ev := &t.Events
	for _, in := range inst {
		var sum float64
		buf = slices.Grow(buf[:0], len(in.Events))
		ends := buf[:len(in.Events)]
		for i, e := range in.Events {
			ends[i] = float64(ev.Start[e] + ev.Dur[e] - o.Of(ev.Rank[e]))
			sum += ends[i]
		}
		mean := sum / float64(len(ends))
		for _, x := range ends {
			res = append(res, int64(math.Round(math.Abs(x-mean))))
		}
	}
	return median(res)
}
