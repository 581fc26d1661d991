package pprofx

import (
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// kernel is one GPU event of a rank's step, on the aligned clock.
type kernel struct {
	start, end int64
	kind       model.Kind
	axis       string
	name       string
}

// kernels holds one rank's GPU events in the timeline window, by start.
type kernels struct {
	list   []kernel
	maxDur int64
}

func newKernels(tr *model.Trace, rank int, offset, from, to int64) *kernels {
	k := &kernels{}
	if tr == nil {
		return k
	}
	lo, hi := tr.Events.RankRange(int32(rank))
	for i := lo; i < hi; i++ {
		e := tr.Events.At(i)
		s, end := e.Start-offset, e.End()-offset
		if !e.Kind.OnGPU() || e.Kind == model.KindGPUAnnotation || end <= from || s >= to {
			continue
		}
		k.list = append(k.list, kernel{start: s, end: end, kind: e.Kind, axis: commAxis(tr, e), name: tr.Name(i)})
		k.maxDur = max(k.maxDur, e.Dur)
	}
	slices.SortStableFunc(k.list, func(a, b kernel) int { return int(min(max(a.start-b.start, -1), 1)) })
	return k
}

func commAxis(tr *model.Trace, e model.Event) string {
	if e.Coll < 0 || int(e.Coll) >= tr.Colls.Len() {
		return ""
	}
	c := tr.Colls.Comm[e.Coll]
	if c < 0 || int(c) >= len(tr.Comms) {
		return ""
	}
	return tr.Comms[c].Axis.String()
}

// share is a kernel's part of a segment.
type share struct {
	name string
	ns   int64
}

// share splits segment s among the kernels of its kind overlapping it, in
// proportion to their overlap, never giving out more than its length.
func (k *kernels) share(s result.Segment) []share {
	i, _ := slices.BinarySearchFunc(k.list, s.StartNs-k.maxDur, func(x kernel, t int64) int { return int(min(max(x.start-t, -1), 1)) })
	byName := map[string]int64{}
	var names []string
	var total int64
	for ; i < len(k.list) && k.list[i].start < s.EndNs; i++ {
		x := k.list[i]
		ov := min(x.end, s.EndNs) - max(x.start, s.StartNs)
		if ov <= 0 || !matches(s.Category, x) {
			continue
		}
		if _, ok := byName[x.name]; !ok {
			names = append(names, x.name)
		}
		byName[x.name] += ov
		total += ov
	}
	return scale(names, byName, total, s.EndNs-s.StartNs)
}

func scale(names []string, byName map[string]int64, total, length int64) []share {
	out := make([]share, 0, len(names))
	for _, n := range names {
		ns := byName[n]
		if total > length {
			ns = int64(float64(ns) * float64(length) / float64(total))
		}
		out = append(out, share{n, ns})
	}
	return out
}

// matches tells whether kernel x can explain time of category cat.
func matches(cat string, x kernel) bool {
	switch cat {
	case vocab.CatCompute:
		return x.kind == model.KindCompute
	case vocab.CatMemcpy:
		return x.kind == model.KindMemcpy || x.kind == model.KindMemset
	case vocab.CatBubble, vocab.CatIdle:
		return false
	}
	axis := strings.ToUpper(strings.TrimSuffix(cat, "_exposed"))
	return x.kind == model.KindComm && x.axis == axis
}
