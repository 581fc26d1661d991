package diagnose

import (
	"cmp"
	"maps"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
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
func SlowRanks(fig *Figures, b Blame) []result.SlowRank {
	var out []result.SlowRank
	for _, r := range fig.Ranks {
		peers := peerCompute(fig, r)
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

func peerCompute(fig *Figures, r result.RankStats) []float64 {
	var xs []float64
	for _, p := range fig.Ranks {
		if p.Rank != r.Rank && p.PP == r.PP {
			xs = append(xs, float64(p.ComputeNs))
		}
	}
	return xs
}

func slowEvidence(r result.RankStats, peers int, excess float64, b Blame) []result.Statement {
	ev := []result.Statement{result.Say(vocab.SaySlowCompute, result.Frac("excess", excess), result.Count("peers", int64(peers)),
		result.Ns("compute", r.ComputeNs)).About(r.Rank)}
	waits := b.Peers[int32(r.Rank)]
	for _, k := range slices.Sorted(maps.Keys(waits)) {
		if waits[k] > 0 {
			ev = append(ev, result.Say(vocab.SaySlowPeerWait, result.Ns("wait", waits[k])).Quoting("group", k))
		}
	}
	return ev
}
