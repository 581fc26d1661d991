package analysis

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// kernelStats sets the measured kernels: every GPU kernel (compute,
// communication, memcpy, memset) that starts in an analysed step of its
// rank, by short name, per step, the largest result.MaxKernels by time,
// from the ranks' sums (rankKernels).
func (r *run) kernelStats() {
	n := float64(len(r.steps.Iters))
	if n == 0 {
		return
	}
	count, dur := map[string]float64{}, map[string]int64{}
	short := map[int32]string{} // name id → short name, made once per name
	for i := range r.ranks {
		for _, k := range r.ranks[i].kernels {
			name, ok := short[k.id]
			if !ok {
				name = result.KernelShortName(r.t.Names.Get(k.id))
				short[k.id] = name
			}
			count[name] += float64(k.n)
			dur[name] += k.dur
		}
		r.ranks[i].kernels = nil
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
