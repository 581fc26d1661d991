package summary

import (
	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/ingest/model"
)

// RankBreakdown is one rank's temporal breakdown (HTA's
// get_temporal_breakdown), communication/computation overlap
// (get_comm_comp_overlap) and kernel types, over a window. Percentages
// are of WindowNs (last GPU event end − first GPU event start).
type RankBreakdown struct {
	Rank          int     `json:"rank"`
	WindowNs      int64   `json:"window_ns"`
	IdleNs        int64   `json:"idle_ns"`
	ComputeNs     int64   `json:"compute_ns"`
	NonComputeNs  int64   `json:"non_compute_ns"`
	IdlePct       float64 `json:"idle_pct"`
	ComputePct    float64 `json:"compute_pct"`
	NonComputePct float64 `json:"non_compute_pct"`
	// OverlapPct is the share of communication time under computation,
	// -1 without communication; ExposedCommNs the rest.
	OverlapPct    float64 `json:"overlap_pct"`
	ExposedCommNs int64   `json:"exposed_comm_ns"`
	CommNs        int64   `json:"comm_ns"`   // union of communication kernels
	MemoryNs      int64   `json:"memory_ns"` // union of memcpy and memset
	CommPct       float64 `json:"comm_pct"`
	MemoryPct     float64 `json:"memory_pct"`
}

// Breakdown is every rank's breakdown. hta: over HTA's whole-trace window
// and with its rounding (analysis.HTABreakdown, which matches HTA);
// otherwise over w, the analysed steps.
func Breakdown(t *model.Trace, w Window, hta bool) []RankBreakdown {
	var hs []analysis.HTARank
	if hta {
		hs = analysis.HTABreakdown(t, false)
	} else {
		hs = analysis.BreakdownWhere(t, func(i int) bool { return w.Holds(t, i) })
	}
	out := make([]RankBreakdown, 0, len(hs))
	for _, h := range hs {
		out = append(out, breakdownOf(h))
	}
	return out
}

func breakdownOf(h analysis.HTARank) RankBreakdown {
	pct := func(ns int64) float64 {
		if h.KernelNs <= 0 {
			return 0
		}
		return 100 * float64(ns) / float64(h.KernelNs)
	}
	return RankBreakdown{Rank: int(h.Rank), WindowNs: h.KernelNs, IdleNs: h.IdleNs, ComputeNs: h.ComputeNs, NonComputeNs: h.NonComputeNs,
		IdlePct: pct(h.IdleNs), ComputePct: pct(h.ComputeNs), NonComputePct: pct(h.NonComputeNs),
		OverlapPct: h.OverlapPct, ExposedCommNs: h.ExposedCommNs, CommNs: h.CommNs, MemoryNs: h.MemoryNs,
		CommPct: pct(h.CommNs), MemoryPct: pct(h.MemoryNs)}
}
