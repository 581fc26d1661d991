package gpujoin

import (
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// reasonNames are NVML clock-event reason bits that mean the GPU was held
// back, in the words users know from nvidia-smi.
var reasonNames = []struct {
	bit  uint64
	name string
}{
	{8, "HW slowdown"},
	{64, "HW slowdown: thermal"},
	{128, "HW slowdown: power brake"},
	{32, "SW thermal slowdown"},
	{4, "SW power cap"},
	{1024, "reliability"},
	{512, "board limit"},
}

// HWSlowdown is the mask of reasons that mean the hardware itself held the
// GPU back: HW slowdown, and its thermal and power-brake causes.
const HWSlowdown uint64 = 8 | 64 | 128

// ReasonText names the limiting reasons in a bitmask, "" when none.
func ReasonText(mask uint64) string {
	var out []string
	for _, r := range reasonNames {
		if mask&r.bit != 0 {
			out = append(out, r.name)
		}
	}
	return strings.Join(out, ", ")
}

// Evidence compares rank's GPU with its peers' GPUs over the window [from,
// to) on the rank's own clock, and returns it as a statement that reads
// "GPU node000/5: SM clock 1,410 MHz vs 1,980 MHz on its peers; HW
// slowdown: thermal", or ok=false when there are no samples for the rank's
// GPU.
func Evidence(t *model.Trace, rank int32, peers []int32, from, to int64) (line result.Statement, ok bool) {
	return EvidenceWith(t, Map(t), rank, peers, from, to)
}

// EvidenceWith is Evidence with gpus = Map(t) given, so that a caller
// asking for every rank maps the ranks to GPUs once, not once per rank.
func EvidenceWith(t *model.Trace, gpus []int32, rank int32, peers []int32, from, to int64) (line result.Statement, ok bool) {
	ri := t.FindRank(rank)
	if ri < 0 || gpus[ri] < 0 {
		return line, false
	}
	base := t.Ranks[ri].ClockBase
	own := Summarize(t, gpus[ri], base+from, base+to)
	if own.Samples == 0 {
		return line, false
	}
	peerClock := peersMedianClock(t, gpus, peers, base+from, base+to)
	return describe(t.SampleGPUs[gpus[ri]], own, peerClock), true
}

// peersMedianClock is the median over the peers' GPUs of each one's
// median SM clock in [from, to), -1 when none has one.
func peersMedianClock(t *model.Trace, gpus []int32, peers []int32, from, to int64) float64 {
	var clocks, buf []float64
	for _, p := range peers {
		if pi := t.FindRank(p); pi >= 0 && gpus[pi] >= 0 {
			var c float64
			if c, buf = medianClock(t, gpus[pi], from, to, buf[:0]); c > 0 {
				clocks = append(clocks, c)
			}
		}
	}
	return median(clocks)
}

// medianClock is Summarize(t, g, from, to).SMClockMHz without the other
// figures, reusing buf; it returns buf for the next call.
func medianClock(t *model.Trace, g int32, from, to int64, buf []float64) (float64, []float64) {
	lo, hi := t.Samples.Window(g, from, to)
	for i := lo; i < hi; i++ {
		buf = appendKnown(buf, float64(t.Samples.At(i).SMClockMHz))
	}
	return median(buf), buf
}

func describe(g model.SampledGPU, own Summary, peerClock float64) result.Statement {
	st := result.Say(vocab.SayGPU, result.Fig("sm_clock", own.SMClockMHz, vocab.UnitMHz)).Quoting("gpu", fmt.Sprintf("%s/%d", g.Host, g.Index))
	if peerClock > 0 {
		st = st.With(result.Fig("peer_clock", peerClock, vocab.UnitMHz))
	}
	if own.TempC >= 0 {
		st = st.With(result.Fig("temp", own.TempC, vocab.UnitCelsius))
	}
	if r := ReasonText(own.Reasons); r != "" {
		st = st.Quoting("reasons", r)
	}
	for _, x := range own.XIDs {
		st = st.With(result.Count("xid", int64(x)))
	}
	return st
}
