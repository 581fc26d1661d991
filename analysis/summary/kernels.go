package summary

import (
	"cmp"
	"fmt"
	"github.com/tpptrace/tpptrace/analysis/result/tables"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/model"
)

// Kernel groupings.
const (
	ByName   = "name"
	ByStream = "stream"
	ByRank   = "rank"
	ByClass  = "class"
)

// KernelGroupings are what Kernels groups by.
var KernelGroupings = []string{ByName, ByStream, ByRank, ByClass}

// KernelRow is tables.KernelRow.
type KernelRow = tables.KernelRow

// Kernels groups the window's kernels by by (ByName, ByStream, ByRank,
// ByClass), largest total first.
func Kernels(t *model.Trace, w Window, by string) ([]KernelRow, error) {
	if !slices.Contains(KernelGroupings, by) {
		return nil, fmt.Errorf("kernels: unknown grouping %q (want one of %v)", by, KernelGroupings)
	}
	durs := map[string][]int64{}
	var order []string
	for i := range t.Events.Len() {
		k := t.Events.Kind[i]
		if !k.OnGPU() || k == model.KindGPUAnnotation || !w.Holds(t, i) {
			continue
		}
		key := kernelKey(t, i, by)
		if _, ok := durs[key]; !ok {
			order = append(order, key)
		}
		durs[key] = append(durs[key], t.Events.Dur[i])
	}
	return kernelRows(durs, order), nil
}

func kernelRows(durs map[string][]int64, order []string) []KernelRow {
	rows := make([]KernelRow, 0, len(order))
	for _, k := range order {
		rows = append(rows, KernelRow{Key: k, Stats: statsOf(durs[k])})
	}
	ss := make([]*Stats, len(rows))
	for i := range rows {
		ss[i] = &rows[i].Stats
	}
	setShares(ss)
	slices.SortStableFunc(rows, func(a, b KernelRow) int { return cmp.Compare(b.TotalNs, a.TotalNs) })
	return rows
}

func kernelKey(t *model.Trace, i int, by string) string {
	switch by {
	case ByStream:
		return fmt.Sprintf("rank %d stream %d", t.Events.Rank[i], streamID(t, i))
	case ByRank:
		return fmt.Sprintf("rank %d", t.Events.Rank[i])
	case ByClass:
		return classOf(t, i)
	}
	return t.Name(i)
}

// streamID is the device's id of event i's stream, -1 when unknown.
func streamID(t *model.Trace, i int) int64 {
	if s := t.Events.Stream[i]; s >= 0 && int(s) < len(t.Streams) {
		return t.Streams[s].ID
	}
	return -1
}

// classOf is "compute", "comm <AXIS>" (the communicator's axis),
// "memcpy" or "memset".
func classOf(t *model.Trace, i int) string {
	switch k := t.Events.Kind[i]; k {
	case model.KindComm:
		return "comm " + axisName(measure.AxisOf(t, i))
	default:
		return k.String()
	}
}

// axisName is the axis as the Result spells it ("TP", "WORLD"),
// "unknown" when not decided.
func axisName(a model.Axis) string { return a.String() }
