package diagnose

import (
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// clearBlame is how many times more one rank of a pair must have held the
// other back in collectives than the reverse for the blame to point at it.
const clearBlame = 3

// PairNotes covers the stages that only two ranks share, where a robust
// score cannot name a slow rank: when their compute differs by at least
// 5 % and the collective-arrival blame points clearly at the slower one, a
// low-severity note says so.
func PairNotes(fig *Figures, b Blame) []result.Finding {
	var fs []result.Finding
	for _, s := range fig.Stages {
		if len(s.Ranks) != 2 {
			continue
		}
		x, y, ok := rankPair(fig, s.Ranks)
		if !ok || x.ComputeNs < y.ComputeNs {
			x, y = y, x
		}
		if f, ok := pairNote(x, y, b); ok {
			fs = append(fs, f)
		}
	}
	return fs
}

func rankPair(fig *Figures, ranks []int) (x, y result.RankStats, ok bool) {
	i, j := rankIndex(fig, ranks[0]), rankIndex(fig, ranks[1])
	if i < 0 || j < 0 {
		return x, y, false
	}
	return fig.Ranks[i], fig.Ranks[j], true
}

// pairNote judges slow rank x against its only peer y.
func pairNote(x, y result.RankStats, b Blame) (result.Finding, bool) {
	bx, by := b.Ns[int32(x.Rank)], b.Ns[int32(y.Rank)]
	if y.ComputeNs <= 0 || float64(x.ComputeNs) < float64(y.ComputeNs)*(1+slowExcess) || bx <= 0 || bx < clearBlame*by {
		return result.Finding{}, false
	}
	diff := float64(x.ComputeNs)/float64(y.ComputeNs) - 1
	return result.Finding{Kind: vocab.KindRankPair, Severity: vocab.SevLow, CostNs: bx, Ranks: []int{x.Rank, y.Rank}, Stages: []int{x.PP},
		Headline: result.Say(vocab.SayPair, result.Frac("diff", diff), result.Ns("compute", x.ComputeNs), result.Ns("peer", y.ComputeNs)).
			About(x.Rank, y.Rank),
		Evidence: []result.Statement{
			result.Say(vocab.SayPairFew).At(x.PP),
			result.Say(vocab.SayPairBlame, result.Ns("blame", bx), result.Ns("reverse", by)).About(x.Rank, y.Rank),
		},
		Remedy: remedySlow}, true
}

// rankIndex is the index of rank in fig.Ranks, or -1.
func rankIndex(fig *Figures, rank int) int {
	return slices.IndexFunc(fig.Ranks, func(r result.RankStats) bool { return r.Rank == rank })
}
