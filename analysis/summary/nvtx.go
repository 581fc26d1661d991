package summary

import (
	"cmp"
	"github.com/tpptrace/tpptrace/analysis/result/tables"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// RangeRow is tables.RangeRow.
type RangeRow = tables.RangeRow

// NVTX groups the window's annotation ranges by name and side, largest
// total first. Shares are of the side's total.
func NVTX(t *model.Trace, w Window) []RangeRow {
	type key struct {
		name string
		gpu  bool
	}
	durs := map[key][]int64{}
	var order []key
	for i := range t.Events.Len() {
		k := t.Events.Kind[i]
		if k != model.KindAnnotation && k != model.KindGPUAnnotation || !w.Holds(t, i) {
			continue
		}
		kk := key{t.Name(i), k == model.KindGPUAnnotation}
		if _, ok := durs[kk]; !ok {
			order = append(order, kk)
		}
		durs[kk] = append(durs[kk], t.Events.Dur[i])
	}
	rows := make([]RangeRow, 0, len(order))
	for _, k := range order {
		rows = append(rows, RangeRow{Name: k.name, GPU: k.gpu, Stats: statsOf(durs[k])})
	}
	for _, gpu := range []bool{false, true} {
		var ss []*Stats
		for i := range rows {
			if rows[i].GPU == gpu {
				ss = append(ss, &rows[i].Stats)
			}
		}
		setShares(ss)
	}
	slices.SortStableFunc(rows, func(a, b RangeRow) int { return cmp.Compare(b.TotalNs, a.TotalNs) })
	return rows
}
