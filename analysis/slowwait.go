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
		if !slow[in.Last] || in.Op.PointToPoint() || !r.inStep(i) {
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
	i, ok := r.rankSlot(rank)
	if !ok {
		return nil
	}
	return &r.ranks[i]
}

// rankSlot is rank's index in r.ranks; ok false when it has none. The
// index is a slice by rank when the ranks are small (the usual 0..n−1),
// else a map; built on first use.
func (r *run) rankSlot(rank int32) (int, bool) {
	if r.byRank == nil {
		r.indexRanks()
	}
	if r.denseRank != nil {
		if rank < 0 || int(rank) >= len(r.denseRank) || r.denseRank[rank] < 0 {
			return 0, false
		}
		return int(r.denseRank[rank]), true
	}
	i, ok := r.byRank[rank]
	return i, ok
}

// indexRanks builds rankSlot's index.
func (r *run) indexRanks() {
	r.byRank = make(map[int32]int, len(r.ranks))
	hi := int32(-1)
	dense := true
	for i := range r.ranks {
		rk := r.ranks[i].rank
		r.byRank[rk] = i
		hi = max(hi, rk)
		dense = dense && rk >= 0
	}
	if !dense || int(hi) >= 4*len(r.ranks)+1024 {
		return
	}
	r.denseRank = make([]int32, hi+1)
	for i := range r.denseRank {
		r.denseRank[i] = -1
	}
	for i := range r.ranks {
		r.denseRank[r.ranks[i].rank] = int32(i)
	}
}
