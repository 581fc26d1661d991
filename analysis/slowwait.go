package analysis

import "github.com/tpptrace/tpptrace/analysis/measure"

// slowWaits returns, per named slow rank and per axis key, how long the
// other members of the collectives it arrived last to waited for it with no
// compute running, summed over members, per step: the exposed wait that the
// slow-rank finding claims and the exposed-communication findings leave out.
func (r *run) slowWaits() map[int32]map[string]int64 {
	slow := map[int32]bool{}
	for _, s := range r.diag.slow {
		slow[int32(s.Rank)] = true
	}
	if len(slow) == 0 {
		return nil
	}
	out := map[int32]map[string]int64{}
	n := int64(max(len(r.steps.Iters), 1))
	for i := range r.tm.Inst {
		in := &r.tm.Inst[i]
		if !slow[in.Last] || in.Op.PointToPoint() || !r.inSteps(in) {
			continue
		}
		if out[in.Last] == nil {
			out[in.Last] = map[string]int64{}
		}
		out[in.Last][axisKey(in.Axis)] += r.exposedWaits(in) / n
	}
	return out
}

// exposedWaits sums the exposed waits of the members of in other than the
// last to arrive.
func (r *run) exposedWaits(in *measure.Timing) int64 {
	var sum int64
	for _, m := range r.tm.Members[in.First : in.First+in.N] {
		rr := r.rankRun(m.Rank)
		if m.Rank == in.Last || rr == nil || m.Wait <= 0 {
			continue
		}
		s := r.t.Events.Start[m.Event]
		sum += m.Wait - rr.act.Compute.ClipLen(s, s+m.Wait)
	}
	return sum
}

// rankRun returns the measured state of rank, or nil.
func (r *run) rankRun(rank int32) *rankRun {
	i, ok := r.rankIndex()[rank]
	if !ok {
		return nil
	}
	return &r.ranks[i]
}

// rankIndex maps a rank to its index in r.ranks, built on first use.
func (r *run) rankIndex() map[int32]int {
	if r.byRank == nil {
		r.byRank = make(map[int32]int, len(r.ranks))
		for i := range r.ranks {
			r.byRank[r.ranks[i].rank] = i
		}
	}
	return r.byRank
}
