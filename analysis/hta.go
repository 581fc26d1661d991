package analysis

import (
	"math"
	"regexp"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/model"
)

// HTA's kernel classification regexes (hta/common/types.py, utils.py).
var (
	htaComm    = regexp.MustCompile(`(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)`)
	htaNotComp = regexp.MustCompile(`(^nccl)|(.*Memcpy)|(.*Memset)|(.*dma)|(^.*Sync)|(^Stream Wait Event)|(cuda.*LaunchKernel)` +
		`|(^runFunction)|(^hip)|(^job_exe)|(^packet)|(^pe_exe)|(^cpum_exe_subgraph)|(^hccl)|(^collective_subgraph_execution)`)
	htaStep = regexp.MustCompile(`^ProfilerStep#(\d+)`)
)

// HTARank is Holistic Trace Analysis's temporal breakdown and
// communication/computation overlap of one rank, in nanoseconds.
type HTARank struct {
	Rank          int32
	KernelNs      int64   // last GPU event end − first GPU event start
	IdleNs        int64   // KernelNs − |∪ GPU events|
	ComputeNs     int64   // |∪ computation kernels|
	NonComputeNs  int64   // KernelNs − ComputeNs − IdleNs
	OverlapPct    float64 // 100·|comm ∩ compute| / |comm|; -1 without comm
	ExposedCommNs int64   // |comm| − |comm ∩ compute|
	// Kernel types (HTA's COMMUNICATION, MEMORY): the union of the
	// communication kernels, and of the memory kernels (memcpy, memset).
	CommNs, MemoryNs int64
}

// HTABreakdown reproduces HTA's get_temporal_breakdown and
// get_comm_comp_overlap over HTA's window: with more than one
// ProfilerStep, only GPU events launched (by correlation) from CPU events
// that start before the last step (or end with it, includeLast) are kept;
// everything before the first step is kept too. See docs/hta-parity.md.
func HTABreakdown(t *model.Trace, includeLast bool) []HTARank {
	var out []HTARank
	for _, r := range t.Ranks {
		lo, hi := t.Events.RankRange(r.Rank)
		if hi > lo {
			out = append(out, htaRank(t, r.Rank, lo, hi, includeLast))
		}
	}
	return out
}

func htaRank(t *model.Trace, r int32, lo, hi int, includeLast bool) HTARank {
	return rankBreakdown(t, r, lo, hi, htaKeep(t, lo, hi, includeLast), fractionalMicros(t, lo, hi))
}

// BreakdownWhere is HTABreakdown's figures per rank over the GPU events
// that accept takes (all when nil), without HTA's window or its rounding
// to whole microseconds: `tpptrace breakdown` over the analysed steps.
func BreakdownWhere(t *model.Trace, accept func(i int) bool) []HTARank {
	if accept == nil {
		accept = func(int) bool { return true }
	}
	var out []HTARank
	for _, r := range t.Ranks {
		lo, hi := t.Events.RankRange(r.Rank)
		if hi > lo {
			out = append(out, rankBreakdown(t, r.Rank, lo, hi, accept, false))
		}
	}
	return out
}

// rankBreakdown classifies rank r's accepted GPU events (rows lo..hi) as
// HTA does: communication by name, computation what is neither
// communication nor HTA's non-compute names; memory by kind.
func rankBreakdown(t *model.Trace, r int32, lo, hi int, accept func(int) bool, round bool) HTARank {
	c := htaClassify(t, lo, hi, accept, round)
	h := htaFigures(r, measure.Normalize(c.all), measure.Normalize(c.comp), measure.Normalize(c.comm))
	h.MemoryNs = measure.Normalize(c.memKind).Len()
	return h
}

// htaClasses are one rank's accepted GPU intervals by HTA's classes:
// communication and computation by name, memory by name (HTA's kernel
// types) and by kind (memcpy, memset).
type htaClasses struct {
	all, comp, comm, memName, memKind []measure.Interval
}

func htaClassify(t *model.Trace, lo, hi int, accept func(int) bool, round bool) htaClasses {
	var c htaClasses
	for i := lo; i < hi; i++ {
		k := t.Events.Kind[i]
		if !k.OnGPU() || k == model.KindGPUAnnotation || !accept(i) {
			continue
		}
		iv := measure.Interval{Start: t.Events.Start[i], End: t.Events.Start[i] + t.Events.Dur[i]}
		if round {
			iv = htaRound(iv)
		}
		c.all = append(c.all, iv)
		if k == model.KindMemcpy || k == model.KindMemset {
			c.memKind = append(c.memKind, iv)
		}
		switch name := t.Name(i); {
		case htaComm.MatchString(name):
			c.comm = append(c.comm, iv)
		case htaMemory.MatchString(name):
			c.memName = append(c.memName, iv)
		case !htaNotComp.MatchString(name):
			c.comp = append(c.comp, iv)
		}
	}
	return c
}

func htaFigures(r int32, all, comp, comm measure.Set) HTARank {
	lo, hi := all.Bounds()
	h := HTARank{Rank: r, KernelNs: hi - lo, ComputeNs: comp.Len(), CommNs: comm.Len(), OverlapPct: -1}
	h.IdleNs = h.KernelNs - all.Len()
	h.NonComputeNs = h.KernelNs - h.ComputeNs - h.IdleNs
	if c := comm.Len(); c > 0 {
		ov := measure.IntersectLen(comm, comp)
		h.OverlapPct, h.ExposedCommNs = 100*float64(ov)/float64(c), c-ov
	}
	return h
}

// htaKeep returns which GPU events of rank rows [lo, hi) HTA keeps: with
// fewer than two distinct ProfilerSteps all, else those launched (by
// correlation, Events.Launches) from CPU calls that start before the last
// step (or no later than its end, includeLast).
func htaKeep(t *model.Trace, lo, hi int, includeLast bool) func(i int) bool {
	names := map[int32]bool{}
	lastStart, lastEnd := int64(-1<<62), int64(-1<<62)
	for i := lo; i < hi; i++ {
		if !t.Events.Kind[i].OnGPU() && htaStep.MatchString(t.Name(i)) {
			names[t.Events.Name[i]] = true
			lastStart, lastEnd = max(lastStart, t.Events.Start[i]), max(lastEnd, t.Events.Start[i]+t.Events.Dur[i])
		}
	}
	if len(names) < 2 {
		return func(int) bool { return true }
	}
	launch := t.Events.Launches(lo, hi)
	return func(i int) bool {
		l := launch[i-lo]
		return l >= 0 && (includeLast && t.Events.Start[l] <= lastEnd || !includeLast && t.Events.Start[l] < lastStart)
	}
}

// fractionalMicros reports whether rank's GPU times have sub-microsecond
// parts: the trace was written with "<us>.<ns>" numbers, which HTA parses
// as floats and rounds (ts up, end down to whole microseconds).
func fractionalMicros(t *model.Trace, lo, hi int) bool {
	for i := lo; i < hi; i++ {
		if t.Events.Kind[i].OnGPU() && (t.Events.Start[i]%1000 != 0 || t.Events.Dur[i]%1000 != 0) {
			return true
		}
	}
	return false
}

// htaRound is HTA's round_down_time_stamps: start = ceil(start), end =
// floor(end), in microseconds.
// It works on float64 microseconds as HTA does, so that epoch times
// (~1.7e15 µs, a quarter-microsecond apart in float64) round as in HTA.
func htaRound(iv measure.Interval) measure.Interval {
	ts, dur := float64(iv.Start)/1000, float64(iv.End-iv.Start)/1000
	s, e := int64(math.Ceil(ts)), int64(math.Floor(ts+dur))
	return measure.Interval{Start: s * 1000, End: max(e, s) * 1000}
}
