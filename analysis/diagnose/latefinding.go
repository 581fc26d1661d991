package diagnose

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/model/vocab"
)

const remedyLate = "find what holds this rank's host back before its collectives: data loading (more DataLoader workers, " +
	"pinned memory, prefetch), host synchronisations (.item(), logging, checks), a CPU-bound launch thread (CUDA graphs); " +
	"compare its CPU timeline with a peer's"

// lateFindings turns late ranks into findings; their cost is the exposed
// wait they cause, which the exposed-communication findings leave out.
func lateFindings(res *result.Result, late []LateRank) []result.Finding {
	var fs []result.Finding
	for _, l := range late {
		ev := []string{}
		var axes []string
		for _, a := range l.Axes {
			ev = append(ev, arrivalLines(res, l, a)...)
			axes = append(axes, a.Axis)
		}
		ev = append(ev, lateComputeLine(l))
		ev = append(ev, fmt.Sprintf("that wait is counted here, not under exposed %s communication", strings.Join(axes, ", ")))
		fs = append(fs, result.Finding{Kind: vocab.KindLateRank, CostNs: l.CostNs, Ranks: []int{l.Rank.Rank}, Stages: []int{l.Rank.PP},
			Summary: fmt.Sprintf("late rank: %s arrives last at its %s collectives and holds its peers back %s per step",
				Describe(l.Rank), strings.Join(axes, ", "), dur(l.CostNs)),
			Evidence: ev, Remedy: remedyLate})
	}
	return fs
}

// arrivalLines: how often, by how much and what it costs, on one axis;
// and whether its GPU idled before (the host launched late).
func arrivalLines(res *result.Result, l LateRank, a Arrival) []string {
	lat, gap := medianInt(a.Lateness), medianInt(a.Gaps)
	lines := []string{
		fmt.Sprintf("it arrives last at %d of the %d %s collectives of its groups (%s), a median %s after the second latest member",
			a.Last, a.Instances, a.Axis, opCounts(a.Ops), dur(lat)),
		fmt.Sprintf("its peers wait for it %s per step (mean over ranks; %s summed over them): %s of their exposed wait in these collectives",
			dur(a.CausedNs/int64(max(len(res.Ranks), 1))), dur(a.CausedNs), pct(share(a.CausedNs, a.PeerWaitNs))),
	}
	if s := share(a.CausedNs, a.PeerWaitNs); s < 0.95 {
		lines[1] += fmt.Sprintf("; the other %s is their wait until the second latest member arrives", pct(1-s))
	}
	switch {
	case gap < 0:
	case 2*gap >= lat:
		lines = append(lines, fmt.Sprintf("its GPU is idle a median %s right before those kernels start: its host launches them late", dur(gap)))
	default:
		lines = append(lines, fmt.Sprintf("its GPU is idle only a median %s right before those kernels start: earlier work queued on its GPU delays them", dur(gap)))
	}
	return lines
}

func lateComputeLine(l LateRank) string {
	if l.Peers == 0 {
		return fmt.Sprintf("its compute is %s per step; no peer does the same work to compare", dur(l.Rank.ComputeNs))
	}
	d, side := float64(l.Rank.ComputeNs)/float64(max(l.PeerNs, 1))-1, "above"
	if d < 0 {
		d, side = -d, "below"
	}
	return fmt.Sprintf("its compute, %s per step, is %.1f %% %s its %d peers' median (%s): it does not explain the lateness",
		dur(l.Rank.ComputeNs), 100*d, side, l.Peers, dur(l.PeerNs))
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
