package diagnose

import (
	"math"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// Late-rank thresholds (docs/semantics.md, "Late rank").
const (
	lateMinInstances = 3
	lateMajority     = 0.6  // share of its instances it must arrive last to
	lateChance       = 0.01 // at most this likely if every member were equally likely to be last
	lateShare        = 0.2  // share of its peers' exposed wait its lateness must cause
	lateMinCost      = 0.01 // of the step
)

// LateRank is a rank that holds its collective peers back without
// computing more than they do: its host launches its collectives late.
type LateRank struct {
	Rank   result.RankStats
	Axes   []Arrival // the axes on which it arrives late
	CostNs int64     // per step: the exposed wait it causes, mean over ranks
	Peers  int       // ranks doing the same work (same stage), itself left out
	PeerNs int64     // their median compute per step
}

// LateRanks names the ranks that arrive last at the collectives of an
// axis's groups in a clear majority of instances (≥ 60 %, and too often
// for chance), whose lateness causes ≥ 20 % of their peers' exposed wait
// there, and whose compute does not explain it: named slow ranks and
// ranks whose compute excess over their peers' median is at least half
// their lateness are left out. Ordered by rank.
func LateRanks(fig *Figures, arr []Arrival) []LateRank {
	var out []LateRank
	for _, a := range arr {
		if !lateOn(a) {
			continue
		}
		if n := len(out); n > 0 && int32(out[n-1].Rank.Rank) == a.Rank {
			out[n-1].Axes = append(out[n-1].Axes, a)
			continue
		}
		if i := rankIndex(fig, int(a.Rank)); i >= 0 {
			out = append(out, LateRank{Rank: fig.Ranks[i], Axes: []Arrival{a}})
		}
	}
	kept := out[:0]
	for i := range out {
		if unexplainedLate(fig, &out[i]) {
			kept = append(kept, out[i])
		}
	}
	return kept
}

// lateOn judges one rank's arrivals on one axis.
func lateOn(a Arrival) bool {
	if a.Instances < lateMinInstances || a.Members <= a.Instances || a.CausedNs <= 0 {
		return false
	}
	p := float64(a.Instances) / float64(a.Members) // 1 / mean group size
	return float64(a.Last) >= lateMajority*float64(a.Instances) &&
		binomTail(a.Instances, a.Last, p) <= lateChance &&
		float64(a.CausedNs) >= lateShare*float64(a.PeerWaitNs)
}

// unexplainedLate fills l's cost and peers and reports whether l stays a
// late rank: not a named slow rank, its compute excess below half its
// lateness, and its cost at least 1 % of the step.
func unexplainedLate(fig *Figures, l *LateRank) bool {
	var blame int64
	for _, a := range l.Axes {
		l.CostNs += a.CausedNs
		blame += a.BlameNs
	}
	l.CostNs /= int64(max(len(fig.Ranks), 1))
	peers := peerCompute(fig, l.Rank)
	l.Peers, l.PeerNs = len(peers), int64(median(peers))
	if slices.ContainsFunc(fig.SlowRanks, func(s result.SlowRank) bool { return s.Rank == l.Rank.Rank }) {
		return false
	}
	if len(peers) > 0 && 2*(l.Rank.ComputeNs-l.PeerNs) >= blame {
		return false
	}
	return share(l.CostNs, fig.StepNs) >= lateMinCost
}

// binomTail is P(X ≥ k) for X ~ Binomial(n, p).
func binomTail(n, k int, p float64) float64 {
	if k <= 0 {
		return 1
	}
	if p <= 0 {
		return 0
	}
	if p >= 1 {
		return 1
	}
	lgn, _ := math.Lgamma(float64(n + 1))
	var sum float64
	for j := k; j <= n; j++ {
		lj, _ := math.Lgamma(float64(j + 1))
		lnj, _ := math.Lgamma(float64(n - j + 1))
		sum += math.Exp(lgn - lj - lnj + float64(j)*math.Log(p) + float64(n-j)*math.Log1p(-p))
	}
	return min(sum, 1)
}
