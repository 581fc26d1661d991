package analysis

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/diagnose"
	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/model"
)

type arrivalKey struct {
	rank int32
	axis string
}

// arrivals gathers, per rank and axis, how it arrived at the collectives of
// its groups in the analysed steps (diagnose.Arrival), sorted by rank and axis.
func (r *run) arrivals() []diagnose.Arrival {
	acc := map[arrivalKey]*diagnose.Arrival{}
	for i := range r.tm.Inst {
		in := &r.tm.Inst[i]
		if in.Last < 0 || in.N < 2 || in.Op.PointToPoint() || !r.inSteps(in) {
			continue
		}
		r.addArrival(acc, in)
	}
	out := make([]diagnose.Arrival, 0, len(acc))
	n := int64(max(len(r.steps.Iters), 1))
	for _, a := range acc {
		a.CausedNs, a.PeerWaitNs, a.BlameNs = a.CausedNs/n, a.PeerWaitNs/n, a.BlameNs/n
		out = append(out, *a)
	}
	slices.SortFunc(out, func(a, b diagnose.Arrival) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Axis, b.Axis))
	})
	return out
}

// addArrival adds instance in to the arrival of each of its members.
func (r *run) addArrival(acc map[arrivalKey]*diagnose.Arrival, in *measure.Timing) {
	key := axisKey(in.Axis)
	get := func(rk int32) *diagnose.Arrival {
		k := arrivalKey{rk, key}
		if acc[k] == nil {
			acc[k] = &diagnose.Arrival{Rank: rk, Axis: key, Ops: map[string]int{}}
		}
		return acc[k]
	}
	members := r.tm.Members[in.First : in.First+in.N]
	var waits, caused int64
	for _, m := range members {
		waits += r.exposedWait(m, m.Wait, in.Last)
		caused += r.exposedWait(m, min(m.Wait, in.Lateness), in.Last)
	}
	for _, m := range members {
		a := get(m.Rank)
		a.Instances++
		a.Members += in.N
		a.PeerWaitNs += waits - r.exposedWait(m, m.Wait, in.Last)
		if m.Rank == in.Last {
			r.lastArrival(a, in, m)
			a.CausedNs += caused
		}
	}
}

// lastArrival records that a's rank arrived last to in with member m.
func (r *run) lastArrival(a *diagnose.Arrival, in *measure.Timing, m measure.Member) {
	a.Last++
	a.Lateness = append(a.Lateness, in.Lateness)
	a.BlameNs += in.Lateness
	gap := int64(-1)
	if rr := r.rankRun(m.Rank); rr != nil {
		gap = rr.act.All.GapBefore(r.t.Events.Start[m.Event])
	}
	a.Gaps = append(a.Gaps, gap)
	op := in.Op.String()
	if in.Axis != model.AxisUnknown {
		op = in.Axis.String() + " " + op
	}
	a.Ops[op]++
}

// exposedWait is the part of member m's last d ns of waiting (up to the
// latest member start) that no compute on its rank hides; 0 for the last
// member itself.
func (r *run) exposedWait(m measure.Member, d int64, last int32) int64 {
	rr := r.rankRun(m.Rank)
	if m.Rank == last || rr == nil || d <= 0 {
		return 0
	}
	end := r.t.Events.Start[m.Event] + m.Wait
	return d - rr.act.Compute.ClipLen(end-d, end)
}
