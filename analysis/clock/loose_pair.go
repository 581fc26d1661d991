package clock

import "slices"

const (
	// minPairWindowNs is the least window for the ends of a send and its
	// receive (see pairWindow): the end skew of a transfer is a few µs, the
	// gap between transfers of one pair tens of µs or more.
	minPairWindowNs = 10_000
	// pairSample is how many loose kernels of each list the offset search
	// looks at (the first ones, in end order): enough for a few steps of
	// transfers, and it keeps the search quadratic in a constant.
	pairSample = 64
	// pairMin is the fewest common ends that make a pair.
	pairMin = 3
	// maxLooseMembers bounds the ranks of a group whose loose kernels are
	// paired (the search looks at every pair of them): pipeline groups have
	// a few; a world group carrying peerless p2p is left unpaired.
	maxLooseMembers = 64
)

// candidate is a pair of ranks a < b whose loose kernels share ends when
// b's clock is d ahead of a's: count ends fall within the window of each
// other, out of at most n possible; spread is the width they span.
type candidate struct {
	a, b     int32
	d        int64
	count, n int
	spread   int64
	ok       bool
}

// bestPair is the candidate pair of comm with the most common ends (the
// tighter on a tie), if it has enough: pairMin, and a quarter of those
// possible, so that a few chance coincidences never make a pair.
// known keeps the candidates of pairs whose lists have not changed since.
func (s *looseSet) bestPair(comm int32, known map[[2]int32]candidate) (candidate, bool) {
	ranks := s.ranks(comm)
	var best candidate
	for i, a := range ranks {
		for _, b := range ranks[i+1:] {
			c, ok := known[[2]int32{a, b}]
			if !ok {
				c = s.candidate(comm, a, b)
				known[[2]int32{a, b}] = c
			}
			if c.better(best) {
				best = c
			}
		}
	}
	return best, best.ok && best.count >= pairMin && 4*best.count >= best.n
}

func (c candidate) better(o candidate) bool {
	if !o.ok || c.count != o.count {
		return c.count > o.count
	}
	return c.spread < o.spread
}

// candidate finds the offset d = offset(b) − offset(a) at which the most
// ends of a's sends meet ends of b's receives, and of b's sends those of
// a's receives (messages of equal size only, when sizes are known): the
// densest window of the end differences.
func (s *looseSet) candidate(comm, a, b int32) candidate {
	sa, ra := s.lists[looseKey{comm, a, false}], s.lists[looseKey{comm, a, true}]
	sb, rb := s.lists[looseKey{comm, b, false}], s.lists[looseKey{comm, b, true}]
	diffs := appendDiffs(nil, sa, rb)
	diffs = appendDiffs(diffs, ra, sb)
	c := densest(diffs, s.window)
	c.a, c.b = a, b
	c.n = min(len(sa), len(rb), pairSample) + min(len(ra), len(sb), pairSample)
	return c
}

// appendDiffs appends y.end − x.end for the first pairSample kernels of xs
// and ys whose sizes agree.
func appendDiffs(out []int64, xs, ys []loose) []int64 {
	xs, ys = xs[:min(len(xs), pairSample)], ys[:min(len(ys), pairSample)]
	for _, x := range xs {
		for _, y := range ys {
			if sameSize(x, y) {
				out = append(out, y.end-x.end)
			}
		}
	}
	return out
}

func sameSize(x, y loose) bool { return x.bytes < 0 || y.bytes < 0 || x.bytes == y.bytes }

// densest is the window of width w holding the most of diffs, its median
// as d.
func densest(diffs []int64, w int64) candidate {
	if len(diffs) == 0 {
		return candidate{}
	}
	slices.Sort(diffs)
	lo, hi := 0, 0
	for i, j := 0, 0; i < len(diffs); i++ {
		for j < len(diffs) && diffs[j]-diffs[i] <= w {
			j++
		}
		if j-i > hi-lo || j-i == hi-lo && diffs[j-1]-diffs[i] < diffs[hi-1]-diffs[lo] {
			lo, hi = i, j
		}
	}
	in := diffs[lo:hi]
	return candidate{d: in[len(in)/2], count: len(in), spread: in[len(in)-1] - in[0], ok: true}
}

// pairUp pairs each of the sends kx with the unused receive ky of a
// compatible size whose end is nearest to the send's end + d, within the
// window; it removes the paired kernels from both lists and returns
// the pairs (send, receive).
func (s *looseSet) pairUp(kx, ky looseKey, d int64) [][2]int32 {
	xs, ys := s.lists[kx], s.lists[ky]
	usedX, usedY := make([]bool, len(xs)), make([]bool, len(ys))
	var out [][2]int32
	lo := 0
	for i, x := range xs {
		target := x.end + d
		for lo < len(ys) && ys[lo].end < target-s.window {
			lo++
		}
		if j := nearest(ys[:s.upTo(ys, lo, target)], usedY, lo, x, target); j >= 0 {
			usedX[i], usedY[j] = true, true
			out = append(out, [2]int32{x.ev, ys[j].ev})
		}
	}
	s.lists[kx], s.lists[ky] = unused(xs, usedX), unused(ys, usedY)
	return out
}

// upTo is the end of the receives from lo whose end is within the window
// after target.
func (s *looseSet) upTo(ys []loose, lo int, target int64) int {
	hi := lo
	for hi < len(ys) && ys[hi].end <= target+s.window {
		hi++
	}
	return hi
}

// nearest is the index from lo of the unused receive of x's size in ys
// whose end is nearest to target, or -1.
func nearest(ys []loose, used []bool, lo int, x loose, target int64) int {
	best, bestDist := -1, int64(1<<62)
	for j := lo; j < len(ys); j++ {
		dist := ys[j].end - target
		if dist < 0 {
			dist = -dist
		}
		if !used[j] && sameSize(x, ys[j]) && dist < bestDist {
			best, bestDist = j, dist
		}
	}
	return best
}

func unused(l []loose, used []bool) []loose {
	out := l[:0]
	for i, x := range l {
		if !used[i] {
			out = append(out, x)
		}
	}
	return out
}
