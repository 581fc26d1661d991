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
	at := stepCursor{steps: f.steps}
	for i, k := range ev.Kind {
		if !k.OnGPU() {
			ev.Iter[i] = at.stepAt(ev.Start[i])
		}
	}
	rt := corrCursor{rt: f.runtimeByCorr(), corr: ev.Corr}
	for i, k := range ev.Kind {
		if k.OnGPU() && k != model.KindGPUAnnotation {
			if r := rt.find(ev.Corr[i]); r >= 0 {
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

// stepCursor finds steps by time (stepAt), remembering the last one found:
// events in file order mostly fall in the step of the one before.
type stepCursor struct {
	steps []step // sorted by start
	last  int    // index+1 of the last step found, 0 for none
}

// stepAt returns the step whose window [start, end) holds t, or -1: of the
// last step starting at or before t, or of the one before it.
func (c *stepCursor) stepAt(t int64) int32 {
	if j := c.last - 1; j >= 0 && t >= c.steps[j].start && t < c.steps[j].end &&
		(j+1 == len(c.steps) || c.steps[j+1].start > t) {
		return c.steps[j].n // what the search below finds first
	}
	i, _ := slices.BinarySearchFunc(c.steps, t+1, func(s step, t int64) int { return cmp.Compare(s.start, t) })
	for j := i - 1; j >= 0 && j >= i-2; j-- { // steps may touch; nesting is not expected
		if s := c.steps[j]; t >= s.start && t < s.end {
			c.last = j + 1
			return s.n
		}
	}
	return -1
}

// corrCursor finds runtime rows by correlation id (find), trying the row
// after the last one found first: kernels in file order mostly follow
// their launches' order.
type corrCursor struct {
	rt   []int32 // runtime rows sorted by correlation id
	corr []int64
	next int // index in rt to try first
}

// find returns findCorr(rt, corr, c).
func (c *corrCursor) find(v int64) int32 {
	if v < 0 {
		return -1
	}
	for _, q := range [2]int{c.next, c.next - 1} {
		if q >= 0 && q < len(c.rt) && c.corr[c.rt[q]] == v && (q == 0 || c.corr[c.rt[q-1]] < v) {
			c.next = q + 1
			return c.rt[q] // the first row with v, as the search finds
		}
	}
	i, ok := slices.BinarySearchFunc(c.rt, v, func(r int32, v int64) int { return cmp.Compare(c.corr[r], v) })
	if !ok {
		return -1
	}
	c.next = i + 1
	return c.rt[i]
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
