package analysis

import (
	"slices"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// measureStep times every collective instance, measures every rank that
// has step windows, in every step, one rank's events at a time (rankPass),
// and lists the kernels by short name.
func measureStep(r *run) error {
	r.tm = measure.Collectives(r.t, r.inst, r.off.Of)
	r.instIn = r.instancesInSteps()
	for _, rk := range r.t.Ranks {
		if _, ok := r.steps.ByRank[rk.Rank]; ok {
			r.ranks = append(r.ranks, rankRun{rank: rk.Rank, stage: max(int(rk.Coord.PP), 0)})
		}
	}
	if err := r.rankPass(r.src); err != nil {
		return err
	}
	r.meas.ranks = make([]result.RankStats, len(r.ranks))
	for i := range r.ranks {
		r.meas.ranks[i] = r.rankStats(&r.ranks[i])
	}
	r.meas.periodNs = periodOf(r.meas.ranks)
	r.memPeaks()
	r.addWaits()
	r.kernelStats()
	return nil
}

// rankStats averages one rank's figures over the analysed steps.
func (r *run) rankStats(rr *rankRun) result.RankStats {
	rk := r.t.Ranks[r.t.FindRank(rr.rank)]
	s := result.RankStats{Rank: int(rr.rank), Host: rk.Host, LocalGPU: int(rk.LocalGPU), TP: max(int(rk.Coord.TP), 0),
		PP: rr.stage, DP: max(int(rk.Coord.DP), 0), CP: max(int(rk.Coord.CP), 0), EP: max(int(rk.Coord.EP), 0), ClockOffsetNs: r.off.Of(rr.rank),
		CommNs: map[string]int64{}, ExposedNs: map[string]int64{}, ExposedTransferNs: map[string]int64{}}
	var win int64
	for _, f := range rr.figs {
		win += f.Window.Len()
		s.ComputeNs += f.Compute
		s.IdleNs += f.Idle
		s.MemcpyNs += f.Memcpy
		s.BubbleNs += f.Bubble
		s.BubblePPWaitNs += f.BubblePPWait
		s.BubblePPTransferNs += f.BubblePPTransfer
		addAxes(s.CommNs, f.Comm)
		addAxes(s.ExposedNs, f.Exposed)
		addAxes(s.ExposedTransferNs, f.ExposedTransfer)
	}
	n := int64(len(rr.figs))
	s.StepNs, s.ComputeNs, s.IdleNs, s.MemcpyNs, s.BubbleNs = win/n, s.ComputeNs/n, s.IdleNs/n, s.MemcpyNs/n, s.BubbleNs/n
	s.BubblePPWaitNs, s.BubblePPTransferNs = s.BubblePPWaitNs/n, s.BubblePPTransferNs/n
	for _, m := range []map[string]int64{s.CommNs, s.ExposedNs, s.ExposedTransferNs} {
		divAxes(m, n)
	}
	s.ExposedWaitNs = exposedWait(s.ExposedNs, s.ExposedTransferNs)
	if win > 0 {
		s.BubbleFraction = float64(s.BubbleNs*n) / float64(win)
	}
	return s
}

// exposedWait is exposed − exposed transfer, per axis.
func exposedWait(exposed, transfer map[string]int64) map[string]int64 {
	w := make(map[string]int64, len(exposed))
	for k, v := range exposed {
		w[k] = max(v-transfer[k], 0)
	}
	return w
}

// axisKey is the Result key of an axis; unknown and world-wide
// communication is reported under "other".
func axisKey(a model.Axis) string {
	switch a {
	case model.AxisTP, model.AxisPP, model.AxisDP, model.AxisCP, model.AxisEP, model.AxisA2A:
		return a.String()
	default:
		return "other"
	}
}

// axisKeys are axisKey's answers; axisSlot(a) is axisKey(a)'s index.
var axisKeys = [...]string{"TP", "PP", "DP", "CP", "EP", "A2A", "other"}

const nAxisKeys = len(axisKeys)

// axisSlot is the index of axisKey(a) in axisKeys.
func axisSlot(a model.Axis) int {
	switch a {
	case model.AxisTP:
		return 0
	case model.AxisPP:
		return 1
	case model.AxisDP:
		return 2
	case model.AxisCP:
		return 3
	case model.AxisEP:
		return 4
	case model.AxisA2A:
		return 5
	}
	return 6
}

func addAxes(m map[string]int64, v [measure.NAxes]int64) {
	for a, x := range v {
		if x != 0 || a == int(model.AxisTP) || a == int(model.AxisPP) || a == int(model.AxisDP) {
			m[axisKey(model.Axis(a))] += x
		}
	}
}

func divAxes(m map[string]int64, n int64) {
	for k := range m {
		m[k] /= n
	}
}

// periodOf is the median over ranks of their step_ns (the upper middle
// for an even count), 0 without ranks.
func periodOf(rs []result.RankStats) int64 {
	if len(rs) == 0 {
		return 0
	}
	v := make([]int64, len(rs))
	for i, r := range rs {
		v[i] = r.StepNs
	}
	slices.Sort(v)
	return v[len(v)/2]
}
