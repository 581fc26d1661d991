package analysis

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// kernelStats sets the measured kernels: every GPU kernel (compute,
// communication, memcpy, memset) that starts in an analysed step of its
// rank, by short name, per step, the largest result.MaxKernels by time.
func (r *run) kernelStats() {
	n := float64(len(r.steps.Iters))
	if n == 0 {
		return
	}
	count, dur := map[string]float64{}, map[string]int64{}
	short := map[int32]string{} // name id → short name, made once per name
	ev := &r.t.Events
	for i := range ev.Len() {
		k := ev.Kind[i]
		if !k.OnGPU() || k == model.KindGPUAnnotation || r.stepOf(ev.Rank[i], ev.Start[i]) < 0 {
			continue
		}
		name, ok := short[ev.Name[i]]
		if !ok {
			name = result.KernelShortName(r.t.Name(i))
			short[ev.Name[i]] = name
		}
		count[name]++
		dur[name] += ev.Dur[i]
	}
	var out []result.KernelStat
	for name, c := range count {
		out = append(out, result.KernelStat{Name: name, Count: c / n, TimeNs: int64(float64(dur[name]) / n)})
	}
	slices.SortFunc(out, func(a, b result.KernelStat) int {
		return cmp.Or(cmp.Compare(b.TimeNs, a.TimeNs), cmp.Compare(a.Name, b.Name))
	})
	r.meas.kernels = out[:min(len(out), result.MaxKernels)]
}
