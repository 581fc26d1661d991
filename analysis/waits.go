package analysis

import (
	"slices"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/analysis/par"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/analysis/steps"
)

// stepOf returns the index of the analysed step of rank rk whose window
// holds ts (own clock), or -1.
func (r *run) stepOf(rk int32, ts int64) int { return windowAt(r.steps.ByRank[rk], ts) }

// windowAt is the index of the window of ws (sorted, disjoint) holding ts,
// or -1.
func windowAt(ws []steps.Window, ts int64) int {
	i, _ := slices.BinarySearchFunc(ws, ts, func(w steps.Window, t int64) int {
		switch {
		case w.End <= t:
			return -1
		case w.Start > t:
			return 1
		}
		return 0
	})
	if i < len(ws) && ws[i].Start <= ts && ts < ws[i].End {
		return i
	}
	return -1
}

// inSteps reports whether a collective instance lies in an analysed step
// (judged by its first member).
func (r *run) inSteps(in *measure.Timing) bool {
	m := r.tm.Members[in.First]
	return r.stepOf(m.Rank, r.t.Events.Start[m.Event]) >= 0
}

// inStep is inSteps of instance i of r.tm, looked up (instIn).
func (r *run) inStep(i int) bool { return r.instIn[i] }

// instancesInSteps is inSteps of every instance of r.tm, by index.
func (r *run) instancesInSteps() []bool {
	in := make([]bool, len(r.tm.Inst))
	par.Blocks(len(in), 4096, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			in[i] = r.inSteps(&r.tm.Inst[i])
		}
	})
	return in
}

// addWaits fills each rank's wait and transfer per axis, per step.
func (r *run) addWaits() {
	type sums struct {
		seen           uint8 // bit k: axisKeys[k] was met
		wait, transfer [nAxisKeys]int64
	}
	acc := make([]sums, len(r.meas.ranks))
	n := int64(len(r.steps.Iters))
	for i := range r.tm.Inst {
		in := &r.tm.Inst[i]
		if !r.inStep(i) {
			continue
		}
		k := axisSlot(in.Axis)
		for _, m := range r.tm.Members[in.First : in.First+in.N] {
			if j, ok := r.rankSlot(m.Rank); ok {
				a := &acc[j]
				a.seen |= 1 << k
				a.wait[k] += m.Wait / n
				a.transfer[k] += m.Transfer / n
			}
		}
	}
	for j := range acc {
		addWaitSums(&r.meas.ranks[j], acc[j].seen, &acc[j].wait, &acc[j].transfer)
	}
}

// addWaitSums stores the per-axis sums of the keys seen names in s's
// WaitNs and TransferNs (made here: a rank in no instance has neither).
func addWaitSums(s *result.RankStats, seen uint8, wait, transfer *[nAxisKeys]int64) {
	if seen == 0 {
		return
	}
	if s.WaitNs == nil {
		s.WaitNs, s.TransferNs = map[string]int64{}, map[string]int64{}
	}
	for k := range nAxisKeys {
		if seen&(1<<k) != 0 {
			s.WaitNs[axisKeys[k]] += wait[k]
			s.TransferNs[axisKeys[k]] += transfer[k]
		}
	}
}
