package diagnose

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

const remedyLate = "find what holds this rank's host back before its collectives: data loading (more DataLoader workers, " +
	"pinned memory, prefetch), host synchronisations (.item(), logging, checks), a CPU-bound launch thread (CUDA graphs); " +
	"compare its CPU timeline with a peer's"

// lateFindings turns late ranks into findings; their cost is the exposed
// wait they cause, which the exposed-communication findings leave out.
func lateFindings(fig *Figures, late []LateRank) []result.Finding {
	var fs []result.Finding
	for _, l := range late {
		ev := []result.Statement{}
		var axes []string
		for _, a := range l.Axes {
			ev = append(ev, arrivalLines(fig, l, a)...)
			axes = append(axes, a.Axis)
		}
		ev = append(ev, lateComputeLine(l))
		ev = append(ev, result.Say(vocab.SayCountedHere).On(axes...))
		fs = append(fs, result.Finding{Kind: vocab.KindLateRank, CostNs: l.CostNs, Ranks: []int{l.Rank.Rank}, Stages: []int{l.Rank.PP},
			Headline: result.Say(vocab.SayLateRank, result.Ns("cost", l.CostNs)).About(l.Rank.Rank).On(axes...),
			Evidence: ev, Remedy: remedyLate})
	}
	return fs
}

// arrivalLines: how often, by how much and what it costs, on one axis;
// and whether its GPU idled before (the host launched late).
func arrivalLines(fig *Figures, l LateRank, a Arrival) []result.Statement {
	lat, gap := medianInt(a.Lateness), medianInt(a.Gaps)
	caused := share(a.CausedNs, a.PeerWaitNs)
	lines := []result.Statement{
		result.Say(vocab.SayArrivesLast, append([]result.Figure{result.Count("last", int64(a.Last)), result.Count("instances", int64(a.Instances)),
			result.Ns("lateness", lat)}, opFigures(a.Ops)...)...).On(a.Axis).Quoting("ops", opCounts(a.Ops)),
		result.Say(vocab.SayPeersWait, result.Ns("caused_mean", a.CausedNs/int64(max(len(fig.Ranks), 1))), result.Ns("caused", a.CausedNs),
			result.Frac("caused_share", caused)),
	}
	if caused < 0.95 {
		lines[1] = lines[1].With(result.Frac("rest", 1-caused))
	}
	switch {
	case gap < 0:
	case 2*gap >= lat:
		lines = append(lines, result.Say(vocab.SayLaunchesLate, result.Ns("gap", gap)))
	default:
		lines = append(lines, result.Say(vocab.SayQueued, result.Ns("gap", gap)))
	}
	return lines
}

func lateComputeLine(l LateRank) result.Statement {
	if l.Peers == 0 {
		return result.Say(vocab.SayComputeAlone, result.Ns("compute", l.Rank.ComputeNs))
	}
	d := float64(l.Rank.ComputeNs)/float64(max(l.PeerNs, 1)) - 1
	return result.Say(vocab.SayComputeVs, result.Ns("compute", l.Rank.ComputeNs), result.Frac("diff", d),
		result.Count("peers", int64(l.Peers)), result.Ns("peer", l.PeerNs))
}

// opFigures are the collectives counted per op, as figures "op:DP all_reduce".
func opFigures(ops map[string]int) []result.Figure {
	var out []result.Figure
	for _, k := range slices.Sorted(maps.Keys(ops)) {
		out = append(out, result.Count("op:"+k, int64(ops[k])))
	}
	return out
}

// opCounts lists "DP all_to_all 4, DP all_reduce 1", most frequent first.
func opCounts(ops map[string]int) string {
	keys := slices.SortedFunc(maps.Keys(ops), func(a, b string) int { return cmp.Or(cmp.Compare(ops[b], ops[a]), cmp.Compare(a, b)) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, ops[k])
	}
	return strings.Join(parts, ", ")
}

// medianInt is the median of xs rounded down (0 for none).
func medianInt(xs []int64) int64 {
	fs := make([]float64, len(xs))
	for i, x := range xs {
		fs[i] = float64(x)
	}
	return int64(median(fs))
}

// lateWaits is, per late rank and axis, the exposed wait it causes
// (summed over members, per step): what the exposed findings leave out.
func lateWaits(late []LateRank) map[int32]map[string]int64 {
	out := map[int32]map[string]int64{}
	for _, l := range late {
		m := map[string]int64{}
		for _, a := range l.Axes {
			m[a.Axis] += a.CausedNs
		}
		out[int32(l.Rank.Rank)] = m
	}
	return out
}
