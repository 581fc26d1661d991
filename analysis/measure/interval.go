package measure

import (
	"cmp"
	"iter"
	"slices"
)

// Interval is the half-open range [Start, End) in nanoseconds.
type Interval struct{ Start, End int64 }

// Len is End−Start, or 0 for an empty or inverted interval.
func (iv Interval) Len() int64 { return max(iv.End-iv.Start, 0) }

// Set is a sorted list of disjoint, non-adjacent, non-empty intervals. The
// zero value is the empty set. Build one with Normalize or a Builder.
type Set []Interval

// Normalize sorts ivs, drops empty intervals and merges overlapping or
// touching ones, in place; the result shares ivs's storage.
func Normalize(ivs []Interval) Set {
	ivs = slices.DeleteFunc(ivs, func(iv Interval) bool { return iv.End <= iv.Start })
	slices.SortFunc(ivs, func(a, b Interval) int { return cmp.Compare(a.Start, b.Start) })
	out := ivs[:0]
	for _, iv := range ivs {
		if n := len(out); n > 0 && iv.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, iv.End)
			continue
		}
		out = append(out, iv)
	}
	return Set(out)
}

// Len is the total length of the set.
func (s Set) Len() int64 {
	var n int64
	for _, iv := range s {
		n += iv.End - iv.Start
	}
	return n
}

// Union returns a ∪ b as a new set.
func Union(a, b Set) Set {
	out := make([]Interval, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var iv Interval
		if j >= len(b) || i < len(a) && a[i].Start <= b[j].Start {
			iv, i = a[i], i+1
		} else {
			iv, j = b[j], j+1
		}
		if n := len(out); n > 0 && iv.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, iv.End)
			continue
		}
		out = append(out, iv)
	}
	return out
}

// Intersect returns a ∩ b as a new set.
func Intersect(a, b Set) Set {
	var out Set
	for iv := range overlaps(a, b) {
		out = append(out, iv)
	}
	return out
}

// IntersectLen returns |a ∩ b| without allocating.
func IntersectLen(a, b Set) int64 {
	var n int64
	for iv := range overlaps(a, b) {
		n += iv.End - iv.Start
	}
	return n
}

// overlaps yields the non-empty overlaps of a and b in order, walking both
// sets once.
func overlaps(a, b Set) iter.Seq[Interval] {
	return func(yield func(Interval) bool) {
		i, j := 0, 0
		for i < len(a) && j < len(b) {
			lo, hi := max(a[i].Start, b[j].Start), min(a[i].End, b[j].End)
			if hi > lo && !yield(Interval{lo, hi}) {
				return
			}
			if a[i].End < b[j].End {
				i++
			} else {
				j++
			}
		}
	}
}

// Subtract returns a − b as a new set.
func Subtract(a, b Set) Set {
	var out Set
	j := 0
	for _, iv := range a {
		for j < len(b) && b[j].End <= iv.Start {
			j++
		}
		cur := iv.Start
		for k := j; k < len(b) && b[k].Start < iv.End; k++ {
			if b[k].Start > cur {
				out = append(out, Interval{cur, b[k].Start})
			}
			cur = max(cur, b[k].End)
		}
		if cur < iv.End {
			out = append(out, Interval{cur, iv.End})
		}
	}
	return out
}

// Clip returns s ∩ [lo, hi) as a new set.
func (s Set) Clip(lo, hi int64) Set {
	i, _ := slices.BinarySearchFunc(s, lo, func(iv Interval, t int64) int { return cmp.Compare(iv.End, t+1) })
	var out Set
	for k := i; k < len(s) && s[k].Start < hi; k++ {
		a, b := max(s[k].Start, lo), min(s[k].End, hi)
		if b <= a {
			continue
		}
		if out == nil { // room for every interval left that starts before hi: one allocation
			j, _ := slices.BinarySearchFunc(s[k:], hi, func(iv Interval, t int64) int { return cmp.Compare(iv.Start, t) })
			out = make(Set, 0, j)
		}
		out = append(out, Interval{a, b})
	}
	return out
}

// ClipLen returns |s ∩ [lo, hi)| without allocating.
func (s Set) ClipLen(lo, hi int64) int64 {
	i, _ := slices.BinarySearchFunc(s, lo, func(iv Interval, t int64) int { return cmp.Compare(iv.End, t+1) })
	var n int64
	for ; i < len(s) && s[i].Start < hi; i++ {
		n += max(min(s[i].End, hi)-max(s[i].Start, lo), 0)
	}
	return n
}

// Shift returns s moved by d nanoseconds.
func (s Set) Shift(d int64) Set {
	out := make(Set, len(s))
	for i, iv := range s {
		out[i] = Interval{iv.Start + d, iv.End + d}
	}
	return out
}

// Bounds returns the first start and last end, or 0, 0 for the empty set.
func (s Set) Bounds() (lo, hi int64) {
	if len(s) == 0 {
		return 0, 0
	}
	return s[0].Start, s[len(s)-1].End
}
