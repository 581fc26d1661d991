package report

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// rankDeltas lists every rank named slow, then every rank named late, in
// either run: newly named is a regression, no longer named an improvement.
func rankDeltas(base, cur *result.Result) []Delta {
	var ds []Delta
	for _, role := range []struct {
		name  string
		ranks func(*result.Result) []int
	}{{"slow", slowRanks}, {"late", lateRanks}} {
		b, n := role.ranks(base), role.ranks(cur)
		for _, rk := range unionSorted(b, n) {
			d := namedDelta(fmt.Sprintf("%s rank %d", role.name, rk), slices.Contains(b, rk), slices.Contains(n, rk))
			d.ID = fmt.Sprintf("%s_rank[%d]", role.name, rk)
			ds = append(ds, d)
		}
	}
	return ds
}

func namedDelta(name string, inBase, inNew bool) Delta {
	d := Delta{Name: name, Kind: DeltaRank, Unit: "named", Base: b2f(inBase), New: b2f(inNew), Gated: true}
	d.Regressed, d.Improved = inNew && !inBase, inBase && !inNew
	return d
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// slowRanks are the Result's slow ranks and the ranks of its slow_rank
// findings.
func slowRanks(r *result.Result) []int {
	var out []int
	for _, s := range r.SlowRanks {
		out = append(out, s.Rank)
	}
	return unionSorted(out, findingRanks(r, vocab.KindSlowRank))
}

func lateRanks(r *result.Result) []int { return findingRanks(r, vocab.KindLateRank) }

func findingRanks(r *result.Result, kind string) []int {
	var out []int
	for _, f := range r.Findings {
		if f.Kind == kind {
			out = append(out, f.Ranks...)
		}
	}
	return unionSorted(out)
}

// unionSorted is the sorted set of the ranks in lists.
func unionSorted(lists ...[]int) []int {
	var out []int
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// findingDeltas lists the findings (by kind, and ranks for kinds about
// particular ranks) that only one run has, with their cost per step; slow
// and late ranks are rank deltas. A
// finding that appears regresses when no finding of its kind was in the
// base and its cost passes the gate (a finding of a known kind naming
// other ranks is shown, and its time is gated by the figures); one that
// disappears is an improvement when its cost passes the floor.
func findingDeltas(base, cur *result.Result, j judge) []Delta {
	bk, nk := findingCosts(base), findingCosts(cur)
	var ds []Delta
	for _, k := range unionKeys(base, cur) {
		bc, inBase := bk[k]
		nc, inNew := nk[k]
		if inBase == inNew {
			continue
		}
		d := j.judge("finding", Delta{ID: k.id(), Name: k.String(), Kind: DeltaFinding, Unit: "ns", Base: float64(bc), New: float64(nc)}, true)
		d.Regressed = d.Regressed && !hasKind(base, k.kind)
		ds = append(ds, d)
	}
	return ds
}

// findingKey names a finding by kind and ranks.
type findingKey struct{ kind, ranks string }

func (k findingKey) String() string {
	if k.ranks == "" {
		return "finding " + k.kind
	}
	return fmt.Sprintf("finding %s (ranks %s)", k.kind, k.ranks)
}

// id is the key's machine id: "finding.gpu_idle", "finding.topology[4-5]".
func (k findingKey) id() string {
	if k.ranks == "" {
		return "finding." + k.kind
	}
	return fmt.Sprintf("finding.%s[%s]", k.kind, k.ranks)
}

// keyOf is the finding's kind, with its ranks when the kind is about
// particular ranks (a pair, a GPU, a TP group across hosts, the ranks
// missing); for the other kinds the ranks only say where the time is lost
// and vary from run to run.
func keyOf(f result.Finding) findingKey {
	switch f.Kind {
	case vocab.KindRankPair, vocab.KindGPUThrottle, vocab.KindTopology, vocab.KindMissingRanks:
		return findingKey{f.Kind, rankRanges(unionSorted(f.Ranks))}
	}
	return findingKey{kind: f.Kind}
}

// rankRanges writes sorted ranks with runs collapsed: "0-3,6".
func rankRanges(rs []int) string { return result.RankRanges(rs) }

// findingCosts maps the compared findings of r to their cost per step.
func findingCosts(r *result.Result) map[findingKey]int64 {
	m := map[findingKey]int64{}
	for _, f := range r.Findings {
		if f.Kind != vocab.KindSlowRank && f.Kind != vocab.KindLateRank {
			m[keyOf(f)] += f.CostNs
		}
	}
	return m
}

// unionKeys is the compared findings' keys of both runs in first-seen
// order, base first.
func unionKeys(base, cur *result.Result) []findingKey {
	var out []findingKey
	seen := map[findingKey]bool{}
	for _, r := range []*result.Result{base, cur} {
		for _, f := range r.Findings {
			k := keyOf(f)
			if !seen[k] && f.Kind != vocab.KindSlowRank && f.Kind != vocab.KindLateRank {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

func hasKind(r *result.Result, kind string) bool {
	return slices.ContainsFunc(r.Findings, func(f result.Finding) bool { return f.Kind == kind })
}
