package layout

import (
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// decidedBy names the most trusted source that labelled a parallel axis.
func decidedBy(t *model.Trace, flags bool) string {
	if flags {
		return "flags"
	}
	best := model.AxisByUnknown
	for _, c := range t.Comms {
		if slices.Contains(parallelAxes, c.Axis) && c.AxisBy != model.AxisByUnknown && (best == model.AxisByUnknown || c.AxisBy < best) {
			best = c.AxisBy
		}
	}
	switch best {
	case model.AxisByFlag, model.AxisByDescription:
		return "descriptions"
	case model.AxisByMembers:
		return "members"
	case model.AxisByTraffic:
		return "traffic"
	}
	return "single"
}

// problems checks the world size and where the TP groups sit.
func problems(t *model.Trace, l Layout, world int) []Problem {
	var out []Problem
	if n := l.TP * l.PP * l.DP * l.CP * l.EP; n != world {
		out = append(out, Problem{Kind: "world_size_mismatch",
			Says: result.Say(vocab.SayWorldSize, result.Count("world", int64(world)), result.Count("tp", int64(l.TP)), result.Count("pp", int64(l.PP)),
				result.Count("dp", int64(l.DP)), result.Count("cp", int64(l.CP)), result.Count("ep", int64(l.EP)), result.Count("product", int64(n)))})
	}
	return append(out, tpAcrossHosts(t, l)...)
}

// ints converts ranks for a Statement.
func ints(rs []int32) []int {
	out := make([]int, len(rs))
	for i, r := range rs {
		out[i] = int(r)
	}
	return out
}

// tpAcrossHosts reports each TP group whose ranks sit on more than one
// host: its all-reduces then cross the inter-node network (seed §6.2).
func tpAcrossHosts(t *model.Trace, l Layout) []Problem {
	if l.TP <= 1 {
		return nil
	}
	groups := map[model.Coord][]int32{}
	hosts := map[model.Coord][]string{}
	for _, r := range t.Ranks {
		k := r.Coord
		k.TP = 0
		groups[k] = append(groups[k], r.Rank)
		if r.Host != "" && !slices.Contains(hosts[k], r.Host) {
			hosts[k] = append(hosts[k], r.Host)
		}
	}
	var out []Problem
	for k, g := range groups {
		if len(hosts[k]) > 1 {
			slices.Sort(hosts[k])
			out = append(out, Problem{Kind: "tp_across_hosts", Ranks: g,
				Says: result.Say(vocab.SayTPHosts).About(ints(g)...).Quoting("hosts", strings.Join(hosts[k], ", "))})
		}
	}
	slices.SortFunc(out, func(a, b Problem) int { return int(a.Ranks[0] - b.Ranks[0]) })
	return out
}
