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
	out := r.byShortName(r.kernelsByName())
	for i := range out {
		out[i].Count /= n
		out[i].TimeNs = int64(float64(out[i].TimeNs) / n)
	}
	slices.SortFunc(out, func(a, b result.KernelStat) int {
		return cmp.Or(cmp.Compare(b.TimeNs, a.TimeNs), cmp.Compare(a.Name, b.Name))
	})
	r.meas.kernels = out[:min(len(out), result.MaxKernels)]
}

// byShortName sums the per name id counts and durations per short name
// (integer sums, so the order is free): Count and TimeNs are totals.
func (r *run) byShortName(count, dur []int64) []result.KernelStat {
	byShort := map[string]int{} // short name → index in out
	var out []result.KernelStat
	for id, c := range count {
		if c == 0 {
			continue
		}
		name := result.KernelShortName(r.t.Names.Get(int32(id) - 1))
		k, ok := byShort[name]
		if !ok {
			k = len(out)
			byShort[name] = k
			out = append(out, result.KernelStat{Name: name})
		}
		out[k].Count += float64(c)
		out[k].TimeNs += dur[id]
	}
	return out
}

// kernelsByName counts the GPU kernels that start in an analysed step and
// sums their durations, per name id + 1 (slot 0 gathers ids outside the
// name table, whose name is "").
func (r *run) kernelsByName() (count, dur []int64) {
	ev := &r.t.Events
	count, dur = make([]int64, r.t.Names.Len()+1), make([]int64, r.t.Names.Len()+1)
	for lo := 0; lo < ev.Len(); {
		hi := lo + 1
		for hi < ev.Len() && ev.Rank[hi] == ev.Rank[lo] {
			hi++
		}
		ws := r.steps.ByRank[ev.Rank[lo]]
		for i := lo; i < hi; i++ {
			if k := ev.Kind[i]; !k.OnGPU() || k == model.KindGPUAnnotation || windowAt(ws, ev.Start[i]) < 0 {
				continue
			}
			slot := int(ev.Name[i]) + 1
			if slot <= 0 || slot >= len(count) {
				slot = 0
			}
			count[slot]++
			dur[slot] += ev.Dur[i]
		}
		lo = hi
	}
	return count, dur
}
