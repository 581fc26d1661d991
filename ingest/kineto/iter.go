package kineto

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/tpptrace/tpptrace/model"
)

// stepNumber reports whether an annotation names an iteration and which:
// the regexp's first group when it is a number, else the order of the step.
func (f *fileReader) stepNumber(name string) (int32, bool) {
	m := f.stepRe.FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	if len(m) > 1 {
		if n, err := strconv.ParseInt(m[1], 10, 32); err == nil {
			return int32(n), true
		}
	}
	return int32(len(f.steps)), true
}

// iterations sets Events.Iter: a CPU event belongs to the step whose window
// holds its start; a GPU event to the step of the runtime call that launched
// it (same correlation id); a GPU annotation to that of the CPU annotation
// with its External id.
func (f *fileReader) iterations() {
	if len(f.steps) == 0 {
		return
	}
	slices.SortFunc(f.steps, func(a, b step) int { return cmp.Compare(a.start, b.start) })
	ev := &f.tr.Events
	for i, k := range ev.Kind {
		if !k.OnGPU() {
			ev.Iter[i] = f.stepAt(ev.Start[i])
		}
	}
	rt := f.runtimeByCorr()
	for i, k := range ev.Kind {
		if k.OnGPU() && k != model.KindGPUAnnotation {
			if r := findCorr(rt, ev.Corr, ev.Corr[i]); r >= 0 {
				ev.Iter[i] = ev.Iter[r]
			}
		}
	}
	for _, a := range f.links.gpuAnn {
		if r, ok := f.links.annExt[a.ext]; ok && a.ext >= 0 {
			ev.Iter[a.row] = ev.Iter[r]
		}
	}
}

// stepAt returns the step whose window [start, end) holds t, or -1.
func (f *fileReader) stepAt(t int64) int32 {
	i, _ := slices.BinarySearchFunc(f.steps, t+1, func(s step, t int64) int { return cmp.Compare(s.start, t) })
	for j := i - 1; j >= 0 && j >= i-2; j-- { // steps may touch; nesting is not expected
		if s := f.steps[j]; t >= s.start && t < s.end {
			return s.n
		}
	}
	return -1
}

// runtimeByCorr returns the runtime rows sorted by correlation id.
func (f *fileReader) runtimeByCorr() []int32 {
	corr := f.tr.Events.Corr
	rt := f.links.runtime
	slices.SortFunc(rt, func(a, b int32) int { return cmp.Compare(corr[a], corr[b]) })
	return rt
}

// findCorr returns the row in rt (sorted by corr) with correlation c, or -1.
func findCorr(rt []int32, corr []int64, c int64) int32 {
	if c < 0 {
		return -1
	}
	i, ok := slices.BinarySearchFunc(rt, c, func(r int32, c int64) int { return cmp.Compare(corr[r], c) })
	if !ok {
		return -1
	}
	return rt[i]
}
