package summary

import (
	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result/tables"
	"github.com/tpptrace/tpptrace/model"
)

// RankBreakdown is tables.RankBreakdown.
type RankBreakdown = tables.RankBreakdown

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

// KernelTypeRow is tables.KernelTypeRow.
type KernelTypeRow = tables.KernelTypeRow

// KernelTypes is HTA's kernel-type table: over HTA's window and rounding
// with hta (analysis.HTAKernelTypes, which matches HTA), else over w.
func KernelTypes(t *model.Trace, w Window, hta bool) []KernelTypeRow {
	var ks []analysis.HTAKernelType
	if hta {
		ks = analysis.HTAKernelTypes(t, false)
	} else {
		ks = analysis.KernelTypesWhere(t, func(i int) bool { return w.Holds(t, i) })
	}
	out := make([]KernelTypeRow, len(ks))
	for i, k := range ks {
		out[i] = KernelTypeRow{Type: k.Type, Ns: k.Ns, Percent: k.Percent}
	}
	return out
}
