package measure

import (
	"math"

	"github.com/tpptrace/tpptrace/analysis/clock"
	"github.com/tpptrace/tpptrace/analysis/par"
	"github.com/tpptrace/tpptrace/model"
)

// Timing is one collective instance on the aligned clock.
type Timing struct {
	Comm        int32
	Op          model.Op
	Axis        model.Axis
	Bytes       int64 // message size, -1 when unknown
	LatestStart int64 // aligned start of the last member to arrive
	Last        int32 // the rank that arrived last, -1 for a one-member instance
	Lateness    int64 // latest start − the second latest: how long the last rank held the others
	Transfer    int64 // end − latest start, taken on the last member's own kernel
	First       int   // index of the instance's first member in Timings.Members
	N           int   // number of members
}

// Member is one member kernel of an instance.
type Member struct {
	Event    int32
	Rank     int32
	Wait     int64 // latest member start − own start
	Transfer int64 // own end − latest member start
}

// Timings holds every instance and, flat, their members.
type Timings struct {
	Inst    []Timing
	Members []Member
}

// Collectives times every instance. off maps a rank to its clock offset
// (called from several goroutines). The instances are timed in parallel
// blocks, each into its own slots, so the result is the same as in order.
func Collectives(t *model.Trace, inst []clock.Instance, off func(int32) int64) Timings {
	var keep, first []int // the non-empty instances and their first member
	members := 0
	for i, in := range inst {
		if len(in.Events) > 0 {
			keep, first = append(keep, i), append(first, members)
			members += len(in.Events)
		}
	}
	out := Timings{Inst: make([]Timing, len(keep)), Members: make([]Member, members)}
	par.Blocks(len(keep), 4096, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			in := inst[keep[k]]
			out.Inst[k] = timing(t, in, off, out.Members[first[k]:first[k]+len(in.Events)], first[k])
		}
	})
	return out
}

// timing times one non-empty instance, its members into members (which
// start at index first of Timings.Members).
func timing(t *model.Trace, in clock.Instance, off func(int32) int64, members []Member, first int) Timing {
	ev := &t.Events
	tm := Timing{Comm: in.Comm, Op: in.Op, Axis: AxisOf(t, int(in.Events[0])), Bytes: -1, Last: -1, First: first, N: len(in.Events)}
	if c := ev.Coll[in.Events[0]]; c >= 0 {
		tm.Bytes = t.Colls.Bytes[c]
	}
	latest, second, lastEv := lastArrival(ev, in.Events, off)
	tm.LatestStart = latest
	if len(in.Events) > 1 {
		tm.Last, tm.Lateness = ev.Rank[lastEv], latest-second
	}
	tm.Transfer = ev.Dur[lastEv]
	for j, e := range in.Events {
		s := ev.Start[e] - off(ev.Rank[e])
		members[j] = Member{Event: e, Rank: ev.Rank[e], Wait: latest - s, Transfer: s + ev.Dur[e] - latest}
	}
	return tm
}

// lastArrival returns the latest and second latest aligned starts of a
// non-empty member list and the latest's event. The first member seeds the
// search, so no sentinel start can leave the event unset (a start below any
// sentinel, from an overflowed clock, once indexed Dur with -1).
func lastArrival(ev *model.Events, members []int32, off func(int32) int64) (latest, second int64, lastEv int32) {
	lastEv = members[0]
	latest = ev.Start[lastEv] - off(ev.Rank[lastEv])
	second = math.MinInt64 // set by the second member, if any
	for _, e := range members[1:] {
		s := ev.Start[e] - off(ev.Rank[e])
		if s > latest {
			latest, second, lastEv = s, latest, e
		} else if s > second {
			second = s
		}
	}
	return latest, second, lastEv
}
