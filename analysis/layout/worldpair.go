package layout

import (
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

const (
	worldBinNs = 1_000_000 // histogram bin of end differences between two ranks' compatible kernels
	worldTolNs = 1_000_000 // farthest a paired end may sit from the voted offset
)

// pairByEnds builds instances when the ranks' sequences differ (a sampled
// or partial capture): every kernel of the lowest rank starts an
// instance, and each other rank's kernels join the one they end together
// with, after a constant clock offset voted over all compatible pairs
// (same op and size, see compatible). Ranks whose kernels do not all pair
// get a warning; their unpaired kernels, and instances some rank misses,
// are left for matching to drop.
func pairByEnds(t *model.Trace, ranks []int32, seqs map[int32][]int) ([][]int, []string) {
	ref := seqs[ranks[0]]
	inst := make([][]int, len(ref))
	for p, i := range ref {
		inst[p] = slices.Repeat([]int{-1}, len(ranks))
		inst[p][0] = i
	}
	var warnings []string
	for k, r := range ranks[1:] {
		pairs := pairRank(t, ref, seqs[r])
		for p, i := range pairs {
			inst[p][k+1] = i
		}
		if len(pairs) < max(len(ref), len(seqs[r])) {
			warnings = append(warnings, describeMismatch(ranks[0], r, len(seqs[r]), len(pairs), len(ref)))
		}
	}
	return inst, warnings
}

// pairRank maps positions in as to the kernel of bs that ends together
// with it: compatible, unused, within worldTolNs of the voted offset.
func pairRank(t *model.Trace, as, bs []int) map[int]int {
	delta, ok := voteEnds(t, as, bs)
	out := map[int]int{}
	if !ok {
		return out
	}
	used := map[int]bool{}
	for p, a := range as {
		if b, ok := nearestCompatible(t, a, end(t, a)+delta, bs, used); ok {
			used[b] = true
			out[p] = b
		}
	}
	return out
}

// voteEnds returns the most common end difference end(b) − end(a) over
// compatible pairs (bins of worldBinNs, each counting its neighbours; the
// bin nearest zero wins a tie), refined to the median of the differences
// in the winning bins.
func voteEnds(t *model.Trace, as, bs []int) (int64, bool) {
	votes := map[int64]int{}
	eachCompatible(t, as, bs, func(d int64) { votes[floorDiv(d, worldBinNs)]++ })
	best, bestN := int64(0), 0
	for bin := range votes {
		n := votes[bin-1] + votes[bin] + votes[bin+1]
		if n > bestN || n == bestN && absInt64(bin) < absInt64(best) {
			best, bestN = bin, n
		}
	}
	var near []int64
	eachCompatible(t, as, bs, func(d int64) {
		if b := floorDiv(d, worldBinNs); b >= best-1 && b <= best+1 {
			near = append(near, d)
		}
	})
	if len(near) == 0 {
		return 0, false
	}
	slices.Sort(near)
	return near[len(near)/2], true
}

// eachCompatible calls f with end(b) − end(a) for every compatible pair of
// the first maxVoteEach kernels of each side.
func eachCompatible(t *model.Trace, as, bs []int, f func(int64)) {
	for _, a := range as[:min(len(as), maxVoteEach)] {
		for _, b := range bs[:min(len(bs), maxVoteEach)] {
			if compatible(t, a, b) {
				f(end(t, b) - end(t, a))
			}
		}
	}
}

// nearestCompatible returns the unused kernel of bs (sorted by end)
// compatible with a whose end is closest to target, within worldTolNs.
func nearestCompatible(t *model.Trace, a int, target int64, bs []int, used map[int]bool) (int, bool) {
	k, _ := slices.BinarySearchFunc(bs, target-worldTolNs, func(i int, v int64) int {
		return int(max(min(end(t, i)-v, 1), -1))
	})
	best, bestD := -1, int64(worldTolNs+1)
	for ; k < len(bs) && end(t, bs[k]) <= target+worldTolNs; k++ {
		b := bs[k]
		if d := absInt64(end(t, b) - target); !used[b] && d < bestD && compatible(t, a, b) {
			best, bestD = b, d
		}
	}
	return best, best >= 0
}

func absInt64(x int64) int64 { return max(x, -x) }
