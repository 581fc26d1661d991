package clock

import (
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// collect turns complete groups into instances, in first-seen order.
func collect(t *model.Trace, keys []key, g groups, st *Stats) []Instance {
	var out []Instance
	for k, key := range keys {
		rows := g.of(k)
		if doubled(t, rows) || !complete(t, key, rows) {
			st.Dropped++
			continue
		}
		out = append(out, instance(t, key, rows))
	}
	st.Instances = len(out)
	return out
}

// doubled reports whether a rank has more than one kernel among rows
// (which are ordered by rank).
func doubled(t *model.Trace, rows []int32) bool {
	for j := 1; j < len(rows); j++ {
		if t.Events.Rank[rows[j]] == t.Events.Rank[rows[j-1]] {
			return true
		}
	}
	return false
}

// complete reports whether every expected member has exactly one kernel:
// both ends of a p2p pair, or every member of the communicator (the ranks
// seen, when the communicator lists none, provided they agree with the
// recorded group size). rows are the group's kernels, one per rank.
func complete(t *model.Trace, k key, rows []int32) bool {
	ranks := t.Events.Rank
	if k.a >= 0 {
		return len(rows) == 2 && (ranks[rows[0]] == min(k.a, k.b) && ranks[rows[1]] == max(k.a, k.b))
	}
	members := t.Comms[k.comm].Members
	if len(members) == 0 {
		size := t.Colls.GroupSize[t.Events.Coll[rows[0]]]
		return len(rows) >= 2 && (size < 0 || int(size) == len(rows))
	}
	if len(rows) != len(members) || len(members) < 2 {
		return false
	}
	for _, i := range rows {
		if _, ok := slices.BinarySearch(members, ranks[i]); !ok {
			return false
		}
	}
	return true
}

// instance is a complete group's instance; its kernels are ordered by
// member rank already (byEnd).
func instance(t *model.Trace, k key, rows []int32) Instance {
	seq := k.seq
	if seq < -1 {
		seq = -2 - seq
	}
	return Instance{Comm: k.comm, Seq: seq, Op: t.Colls.Op[t.Events.Coll[rows[0]]], Events: rows}
}
