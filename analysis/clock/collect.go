package clock

import (
	"slices"

	"github.com/tpptrace/tpptrace/ingest/model"
)

// collect turns complete groups into instances, in first-seen order.
func collect(t *model.Trace, groups map[key]*pending, order []key, st *Stats) []Instance {
	var out []Instance
	for _, k := range order {
		g := groups[k]
		if g.bad || !complete(t, k, g) {
			st.Dropped++
			continue
		}
		out = append(out, instance(t, k, g))
	}
	st.Instances = len(out)
	return out
}

// complete reports whether every expected member has exactly one kernel:
// both ends of a p2p pair, or every member of the communicator (the ranks
// seen, when the communicator lists none, provided they agree with the
// recorded group size).
func complete(t *model.Trace, k key, g *pending) bool {
	if k.a >= 0 {
		return len(g.ranks) == 2 && slices.Contains(g.ranks, k.a) && slices.Contains(g.ranks, k.b)
	}
	members := t.Comms[k.comm].Members
	if len(members) == 0 {
		size := t.Colls.GroupSize[t.Events.Coll[g.events[0]]]
		return len(g.ranks) >= 2 && (size < 0 || int(size) == len(g.ranks))
	}
	if len(g.ranks) != len(members) || len(members) < 2 {
		return false
	}
	for _, r := range g.ranks {
		if _, ok := slices.BinarySearch(members, r); !ok {
			return false
		}
	}
	return true
}

func instance(t *model.Trace, k key, g *pending) Instance {
	idx := make([]int, len(g.events))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return int(g.ranks[a]) - int(g.ranks[b]) })
	evs := make([]int32, len(idx))
	for i, j := range idx {
		evs[i] = g.events[j]
	}
	seq := k.seq
	if seq < -1 {
		seq = -2 - seq
	}
	return Instance{Comm: k.comm, Seq: seq, Op: t.Colls.Op[t.Events.Coll[evs[0]]], Events: evs}
}
