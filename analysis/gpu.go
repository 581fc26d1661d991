package analysis

import (
	"github.com/tpptrace/tpptrace/analysis/gpujoin"
	"github.com/tpptrace/tpptrace/analysis/result"
)

// gpuStep joins GPU samples, when the trace has them, to the analysed
// steps: each rank's GPU summary goes to its measured figures, and each slow rank's
// evidence cites what its GPU did against its peers' GPUs. It returns the
// evidence line of every rank whose GPU was sampled.
func (r *run) gpuStep() map[int]result.Statement {
	if r.t.Samples.Len() == 0 {
		return nil
	}
	gpus, stages := gpujoin.Map(r.t), r.stageRanks() // once: Evidence would map every rank again for each rank
	clocks := gpujoin.NewClocks(r.t, gpus)           // the peers' medians, shared by a stage's ranks
	lines := map[int]result.Statement{}
	var peers []int32
	for i := range r.meas.ranks {
		rs := &r.meas.ranks[i]
		rk := int32(rs.Rank)
		ri := r.t.FindRank(rk)
		if ri < 0 || gpus[ri] < 0 {
			continue
		}
		from, to := r.span(rk)
		base := r.t.Ranks[ri].ClockBase
		own := gpujoin.Summarize(r.t, gpus[ri], base+from, base+to)
		rs.GPU = gpuStats(own)
		peers = peersOf(peers[:0], stages[rs.PP], rk)
		if line, ok := clocks.Against(gpus[ri], own, peers, base+from, base+to); ok {
			lines[rs.Rank] = line
		}
	}
	for i := range r.diag.slow {
		s := &r.diag.slow[i]
		if line, ok := lines[s.Rank]; ok {
			s.Evidence = append(s.Evidence, line)
		}
	}
	return lines
}

// span is the rank's analysed steps on its own clock.
func (r *run) span(rk int32) (from, to int64) {
	ws := r.steps.ByRank[rk]
	if len(ws) == 0 {
		return 0, 0
	}
	return ws[0].Start, ws[len(ws)-1].End
}

// stageRanks lists the measured ranks of each stage, in their order.
func (r *run) stageRanks() map[int][]int32 {
	out := map[int][]int32{}
	for _, p := range r.meas.ranks {
		out[p.PP] = append(out[p.PP], int32(p.Rank))
	}
	return out
}

// peersOf appends to out the ranks of a stage other than rk, in their
// order.
func peersOf(out, stage []int32, rk int32) []int32 {
	for _, p := range stage {
		if p != rk {
			out = append(out, p)
		}
	}
	return out
}

func gpuStats(s gpujoin.Summary) *result.GPUStats {
	if s.Samples == 0 {
		return nil
	}
	return &result.GPUStats{Samples: s.Samples, SMClockMHz: s.SMClockMHz, SMUtilPct: s.SMUtil, PowerW: s.PowerW, TempC: s.TempC,
		ClockReasons: s.Reasons, Reasons: gpujoin.ReasonText(s.Reasons), XIDs: s.XIDs}
}
