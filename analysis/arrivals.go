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
	axis uint8 // axisSlot
}

// arrivals gathers, per rank and axis, how it arrived at the collectives of
// its groups in the analysed steps (diagnose.Arrival), sorted by rank and axis.
func (r *run) arrivals() []diagnose.Arrival {
	acc := map[arrivalKey]*diagnose.Arrival{}
	var own []int64
	for i := range r.tm.Inst {
		in := &r.tm.Inst[i]
		if in.Last < 0 || in.N < 2 || in.Op.PointToPoint() || !r.inStep(i) {
			continue
		}
		own = r.addArrival(acc, in, own)
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

// addArrival adds instance in to the arrival of each of its members; own
// is scratch space (returned, for the next call).
func (r *run) addArrival(acc map[arrivalKey]*diagnose.Arrival, in *measure.Timing, own []int64) []int64 {
	slot := uint8(axisSlot(in.Axis))
	members := r.tm.Members[in.First : in.First+in.N]
	own = own[:0]
	var waits, caused int64
	for _, m := range members {
		rr := r.rankRun(m.Rank)
		w := r.exposedWaitOf(rr, m, m.Wait, in.Last)
		own = append(own, w)
		waits += w
		if in.Lateness < m.Wait {
			w = r.exposedWaitOf(rr, m, in.Lateness, in.Last)
		}
		caused += w
	}
	for k, m := range members {
		a := acc[arrivalKey{m.Rank, slot}]
		if a == nil {
			a = &diagnose.Arrival{Rank: m.Rank, Axis: axisKeys[slot], Ops: map[string]int{}}
			acc[arrivalKey{m.Rank, slot}] = a
		}
		a.Instances++
		a.Members += in.N
		a.PeerWaitNs += waits - own[k]
		if m.Rank == in.Last {
			r.lastArrival(a, in, m)
			a.CausedNs += caused
		}
	}
	return own
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
	a.Ops[r.opName(in.Axis, in.Op)]++
}

// opName is "<axis> <op>" ("DP allreduce"), or the op alone for an unknown
// axis; each built once per run.
func (r *run) opName(ax model.Axis, o model.Op) string {
	k := [2]uint8{uint8(ax), uint8(o)}
	if s, ok := r.opNames[k]; ok {
		return s
	}
	s := o.String()
	if ax != model.AxisUnknown {
		s = ax.String() + " " + s
	}
	if r.opNames == nil {
		r.opNames = map[[2]uint8]string{}
	}
	r.opNames[k] = s
	return s
}

// exposedWaitOf is the part of member m's last d ns of waiting (up to the
// latest member start) that no compute on its rank hides; 0 for the last
// member itself. rr is m's rankRun (nil for none).
func (r *run) exposedWaitOf(rr *rankRun, m measure.Member, d int64, last int32) int64 {
	if m.Rank == last || rr == nil || d <= 0 {
		return 0
	}
	end := r.t.Events.Start[m.Event] + m.Wait
	return d - rr.act.Compute.ClipLen(end-d, end)
}
