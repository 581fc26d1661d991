package samples

import (
	"cmp"
	"slices"
)

// span is a half-open interval [lo, hi) of ns.
type span struct{ lo, hi int64 }

// union sorts and merges spans in place and returns the merged prefix.
func union(v []span) []span {
	slices.SortFunc(v, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	out := v[:0]
	for _, x := range v {
		if x.hi <= x.lo {
			continue
		}
		if n := len(out); n > 0 && x.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, x.hi)
			continue
		}
		out = append(out, x)
	}
	return out
}

// clip restricts spans to [lo, hi).
func clip(v []span, lo, hi int64) []span {
	out := v[:0]
	for _, x := range v {
		x.lo, x.hi = max(x.lo, lo), min(x.hi, hi)
		if x.hi > x.lo {
			out = append(out, x)
		}
	}
	return out
}

// unionLen is |∪ v| within [lo, hi); v is reordered.
func unionLen(v []span, lo, hi int64) int64 {
	var n int64
	for _, x := range union(clip(v, lo, hi)) {
		n += x.hi - x.lo
	}
	return n
}

// gaps returns the parts of [lo, hi) that merged spans u do not cover.
func gaps(u []span, lo, hi int64) []span {
	var out []span
	at := lo
	for _, x := range u {
		if x.lo > at {
			out = append(out, span{at, min(x.lo, hi)})
		}
		at = max(at, x.hi)
	}
	if at < hi {
		out = append(out, span{at, hi})
	}
	return out
}

// overlap is the length of spans v inside [lo, hi).
func overlap(v []span, lo, hi int64) int64 {
	var n int64
	for _, x := range v {
		if a, b := max(x.lo, lo), min(x.hi, hi); b > a {
			n += b - a
		}
	}
	return n
}
