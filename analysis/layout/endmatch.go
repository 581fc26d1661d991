package layout

import (
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

const (
	voteBinNs   = 2_000  // histogram bin of end differences
	matchTolNs  = 10_000 // farthest a matched end may sit from the voted offset
	maxVoteEach = 2048   // kernels per side taken into the vote
)

// matchEnds splits bs into the kernels that end together with one of as
// (after a constant clock offset, voted over all pairs) and the rest.
func matchEnds(t *model.Trace, as, bs []int) (matched, rest []int) {
	if len(as) == 0 || len(bs) == 0 {
		return nil, bs
	}
	end := func(i int) int64 { return t.Events.Start[i] + t.Events.Dur[i] }
	delta := voteOffset(as, bs, end)
	sorted := slices.Clone(bs)
	slices.SortFunc(sorted, func(x, y int) int { return int(end(x) - end(y)) })
	used := map[int]bool{}
	for _, a := range as {
		if b, ok := nearest(sorted, end(a)+delta, end, used); ok {
			used[b] = true
		}
	}
	for _, b := range bs {
		if used[b] {
			matched = append(matched, b)
		} else {
			rest = append(rest, b)
		}
	}
	return matched, rest
}

// voteOffset returns the most common end difference end(b) − end(a),
// refined to the median of the differences in the winning bins.
func voteOffset(as, bs []int, end func(int) int64) int64 {
	votes := map[int64]int{}
	for _, a := range as[:min(len(as), maxVoteEach)] {
		for _, b := range bs[:min(len(bs), maxVoteEach)] {
			votes[floorDiv(end(b)-end(a), voteBinNs)]++
		}
	}
	best, bestN := int64(0), -1
	for bin := range votes {
		if n := votes[bin-1] + votes[bin] + votes[bin+1]; n > bestN || n == bestN && bin < best {
			best, bestN = bin, n
		}
	}
	var near []int64
	for _, a := range as[:min(len(as), maxVoteEach)] {
		for _, b := range bs[:min(len(bs), maxVoteEach)] {
			if d := end(b) - end(a); floorDiv(d, voteBinNs)-best <= 1 && best-floorDiv(d, voteBinNs) <= 1 {
				near = append(near, d)
			}
		}
	}
	slices.Sort(near)
	return near[len(near)/2]
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// nearest returns the unused kernel of sorted (by end) whose end is closest
// to target, within matchTolNs.
func nearest(sorted []int, target int64, end func(int) int64, used map[int]bool) (int, bool) {
	k, _ := slices.BinarySearchFunc(sorted, target, func(i int, v int64) int { return int(end(i) - v) })
	best, bestD := -1, int64(matchTolNs+1)
	for j := k - 1; j >= 0 && target-end(sorted[j]) <= matchTolNs; j-- {
		if d := target - end(sorted[j]); !used[sorted[j]] && d < bestD {
			best, bestD = sorted[j], d
		}
	}
	for j := k; j < len(sorted) && end(sorted[j])-target <= matchTolNs; j++ {
		if d := end(sorted[j]) - target; !used[sorted[j]] && d < bestD {
			best, bestD = sorted[j], d
		}
	}
	return best, best >= 0
}
