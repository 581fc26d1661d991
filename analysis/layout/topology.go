package layout

import (
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// topologyProblems checks what the communicators themselves say against
// the decided layout (seed §6.2, §6.9), beyond problems' checks on
// coordinates: a group whose description or member set names an axis but
// whose ranks are not one group of that axis in the layout (flags that
// contradict the descriptions, a rank order the layout does not follow),
// and a TP communicator whose own members span hosts when no TP group of
// the coordinates was found doing so. Groups labelled from the layout or
// from traffic are not judged: they agree with it by construction.
func topologyProblems(t *model.Trace, l Layout, have []Problem) []Problem {
	o, err := parseOrder(l.Order)
	if err != nil {
		return nil
	}
	var out []Problem
	for _, c := range t.Comms {
		a := evidenceAxis(c)
		if a == model.AxisUnknown {
			continue
		}
		if groupAxis(c.Members, l, o) != a {
			out = append(out, Problem{Kind: "group_mismatch", Ranks: slices.Clone(c.Members),
				Says: result.Say(vocab.SayGroupLayout, result.Count("tp", int64(l.TP)), result.Count("pp", int64(l.PP)),
					result.Count("dp", int64(l.DP)), result.Count("cp", int64(l.CP))).About(ints(c.Members)...).On(a.String()).
					Quoting("comm", commLabel(c)).Quoting("order", l.Order)})
		}
		if a == model.AxisTP && !reported(have, "tp_across_hosts", c.Members) {
			out = append(out, membersAcrossHosts(t, c)...)
		}
	}
	return out
}

// evidenceAxis is the TP, PP, DP or CP axis a communicator of two or more
// ranks claims independently of the layout: the one its description or
// name states (read again, since flags relabel every group), else one
// decided by description or by an equal member set. CP-folded DP groups
// claim nothing.
func evidenceAxis(c model.Communicator) model.Axis {
	if len(c.Members) < 2 || strings.Contains(strings.ToUpper(c.Desc), "WITH_CP") {
		return model.AxisUnknown
	}
	a := axisOfName(c.Desc)
	if a == model.AxisUnknown {
		a = axisOfName(c.Name)
	}
	if a == model.AxisUnknown && (c.AxisBy == model.AxisByDescription || c.AxisBy == model.AxisByMembers) {
		a = c.Axis
	}
	if !slices.Contains([]model.Axis{model.AxisTP, model.AxisPP, model.AxisDP, model.AxisCP}, a) {
		return model.AxisUnknown
	}
	return a
}

func commLabel(c model.Communicator) string {
	return firstLabel(c.Desc, c.Name, c.ID)
}

func firstLabel(s ...string) string {
	for _, x := range s {
		if x != "" && x != "undefined" {
			return x
		}
	}
	return ""
}

func reported(have []Problem, kind string, ranks []int32) bool {
	return slices.ContainsFunc(have, func(p Problem) bool { return p.Kind == kind && slices.Equal(p.Ranks, ranks) })
}

// membersAcrossHosts reports a TP communicator whose members sit on more
// than one host.
func membersAcrossHosts(t *model.Trace, c model.Communicator) []Problem {
	var hosts []string
	for _, r := range c.Members {
		if i := t.FindRank(r); i >= 0 && t.Ranks[i].Host != "" && !slices.Contains(hosts, t.Ranks[i].Host) {
			hosts = append(hosts, t.Ranks[i].Host)
		}
	}
	if len(hosts) < 2 {
		return nil
	}
	slices.Sort(hosts)
	return []Problem{{Kind: "tp_across_hosts", Ranks: slices.Clone(c.Members),
		Says: result.Say(vocab.SayTPHosts).About(ints(c.Members)...).Quoting("comm", commLabel(c)).Quoting("hosts", strings.Join(hosts, ", "))}}
}
