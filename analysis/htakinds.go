package analysis

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/model"
)

// htaMemory is HTA's MEMORY kernel type (hta/utils/utils.py).
var htaMemory = regexp.MustCompile(`(^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)`)

// htaKinds are HTA's kernel types in the order its overlap labels name
// them ("COMPUTATION overlapping COMMUNICATION overlapping MEMORY").
var htaKinds = []string{"COMPUTATION", "COMMUNICATION", "MEMORY"}

// HTAKernelType is one row of HTA's kernel-type breakdown: the GPU time,
// summed over ranks, during which exactly this combination of kernel types
// runs, and its share of all such time.
type HTAKernelType struct {
	Type    string  // "COMPUTATION", "COMPUTATION overlapping COMMUNICATION", …
	Ns      int64   // summed over ranks
	Percent float64 // of the table's total, rounded to 0.1 as HTA does
}

// HTAKernelTypes reproduces HTA's get_gpu_kernel_breakdown kernel-type
// table over HTA's window (as HTABreakdown): per rank, the union of each
// type's kernels, swept into the combinations that run at once; sums over
// ranks; largest first.
func HTAKernelTypes(t *model.Trace, includeLast bool) []HTAKernelType {
	return kernelTypes(t, func(lo, hi int) (func(int) bool, bool) {
		return htaKeep(t, lo, hi, includeLast), fractionalMicros(t, lo, hi)
	})
}

// KernelTypesWhere is the same table over the GPU events accept takes
// (the analysed steps of `tpptrace breakdown`), in exact nanoseconds.
func KernelTypesWhere(t *model.Trace, accept func(i int) bool) []HTAKernelType {
	return kernelTypes(t, func(int, int) (func(int) bool, bool) { return accept, false })
}

// kernelTypes sums the combinations over ranks; per rank, pick gives the
// events taken and whether times round to HTA's microseconds.
func kernelTypes(t *model.Trace, pick func(lo, hi int) (func(int) bool, bool)) []HTAKernelType {
	sums := make([]int64, 1<<len(htaKinds))
	for _, r := range t.Ranks {
		lo, hi := t.Events.RankRange(r.Rank)
		if hi <= lo {
			continue
		}
		accept, round := pick(lo, hi)
		for mask, ns := range sweepMasks(htaTypeSets(t, lo, hi, accept, round)) {
			sums[mask] += ns
		}
	}
	return kernelTypeRows(sums)
}

// htaTypeSets is each kernel type's union over rank rows lo..hi.
func htaTypeSets(t *model.Trace, lo, hi int, accept func(int) bool, round bool) []measure.Set {
	c := htaClassify(t, lo, hi, accept, round)
	return []measure.Set{measure.Normalize(c.comp), measure.Normalize(c.comm), measure.Normalize(c.memName)}
}

// sweepMasks measures, for every combination of the sets (bit k: set k),
// how long exactly that combination is covered.
func sweepMasks(sets []measure.Set) []int64 {
	type edge struct {
		at  int64
		bit int
	}
	var es []edge
	for k, s := range sets {
		for _, iv := range s {
			es = append(es, edge{iv.Start, 1 << k}, edge{iv.End, -(1 << k)})
		}
	}
	slices.SortFunc(es, func(a, b edge) int { return cmp.Compare(a.at, b.at) })
	out := make([]int64, 1<<len(sets))
	mask := 0
	for i, e := range es {
		if i > 0 && mask != 0 {
			out[mask] += e.at - es[i-1].at
		}
		mask += e.bit
	}
	return out
}

// kernelTypeRows labels the combinations, drops the empty ones and gives
// each its share, largest first.
func kernelTypeRows(sums []int64) []HTAKernelType {
	var total int64
	for _, ns := range sums[1:] {
		total += ns
	}
	var out []HTAKernelType
	for mask := 1; mask < len(sums); mask++ {
		if sums[mask] <= 0 {
			continue
		}
		var names []string
		for k, n := range htaKinds {
			if mask&(1<<k) != 0 {
				names = append(names, n)
			}
		}
		pct := math.Round(1000*float64(sums[mask])/float64(total)) / 10
		out = append(out, HTAKernelType{Type: strings.Join(names, " overlapping "), Ns: sums[mask], Percent: pct})
	}
	slices.SortStableFunc(out, func(a, b HTAKernelType) int { return cmp.Compare(b.Ns, a.Ns) })
	return out
}
