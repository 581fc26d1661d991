package diagnose

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// Slow-rank thresholds (docs/semantics.md).
const (
	slowScore  = 3.5
	slowExcess = 0.05
	minPeers   = 2 // a robust score needs at least 3 ranks doing the same work
)

// SlowRanks names the ranks whose compute exceeds the median of their
// peers (same stage) by a robust score ≥ 3.5 and by at least 5 %, with
// evidence; ordered by excess, largest first. Stages of fewer than 3 ranks
// name none (see PairNotes).
func SlowRanks(res *result.Result, b Blame) []result.SlowRank {
	var out []result.SlowRank
	for _, r := range res.Ranks {
		peers := peerCompute(res, r)
		if len(peers) < minPeers {
			continue
		}
		score, med := robustScore(float64(r.ComputeNs), peers)
		if med <= 0 || float64(r.ComputeNs) < med*(1+slowExcess) || score < slowScore {
			continue
		}
		excess := float64(r.ComputeNs)/med - 1
		out = append(out, result.SlowRank{Rank: r.Rank, Score: score, ComputeExcess: excess,
			BlameNs: b.Ns[int32(r.Rank)], Evidence: slowEvidence(r, len(peers), excess, b)})
	}
	slices.SortFunc(out, func(a, b result.SlowRank) int { return cmp.Compare(b.ComputeExcess, a.ComputeExcess) })
	return out
}

func peerCompute(res *result.Result, r result.RankStats) []float64 {
	var xs []float64
	for _, p := range res.Ranks {
		if p.Rank != r.Rank && p.PP == r.PP {
			xs = append(xs, float64(p.ComputeNs))
		}
	}
	return xs
}

// Describe names a rank with its coordinates and GPU:
// "rank 5 (pp1 dp0 tp1, host node000 GPU 5)"; the host is left out when the
// trace does not name it: "rank 5 (pp1 dp0 tp1, GPU 5)".
func Describe(r result.RankStats) string {
	where := fmt.Sprintf("GPU %d", r.LocalGPU)
	if r.Host != "" {
		where = "host " + r.Host + " " + where
	}
	return fmt.Sprintf("rank %d (pp%d dp%d tp%d, %s)", r.Rank, r.PP, r.DP, r.TP, where)
}

func slowEvidence(r result.RankStats, peers int, excess float64, b Blame) []string {
	ev := []string{fmt.Sprintf("%s: compute %s slower than its %d peers (%s per step)",
		Describe(r), pct(excess), peers, dur(r.ComputeNs))}
	waits := b.Peers[int32(r.Rank)]
	for _, k := range slices.Sorted(maps.Keys(waits)) {
		if waits[k] > 0 {
			ev = append(ev, fmt.Sprintf("its peers wait %s per step in %s for it", dur(waits[k]), k))
		}
	}
	return ev
}
