package measure

import (
	"cmp"
	"slices"
)

// GapBefore returns how long the set is empty right before t: 0 when an
// interval covers t or ends at t, t − the end of the last interval that
// ends before t otherwise, and -1 when no interval ends by t.
func (s Set) GapBefore(t int64) int64 {
	// i: the first interval that ends at or after t.
	i, _ := slices.BinarySearchFunc(s, t, func(iv Interval, x int64) int { return cmp.Compare(iv.End, x) })
	if i < len(s) && s[i].Start < t {
		return 0
	}
	if i < len(s) && s[i].End == t {
		return 0
	}
	if i == 0 {
		return -1
	}
	return t - s[i-1].End
}
