package gpujoin

import (
	"fmt"
	"sort"
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
	return NewClocks(t, gpus).Evidence(rank, peers, from, to)
}

// Clocks answers Evidence for many ranks of one trace, each GPU's median
// SM clock over a run of its samples worked out once: a stage's ranks ask
// about the same peers' GPUs over windows that differ by less than the
// samples' spacing, so mostly over the same samples, and a rank's peers
// would otherwise cost ranks² / stages window reads (docs/performance.md
// round 38). A Clocks is not safe for concurrent use.
type Clocks struct {
	t     *model.Trace
	gpus  []int32
	first []int     // GPU g's samples are [first[g], first[g+1]) (nil until asked)
	memo  []runMemo // by GPU (nil until asked)
	buf   []float64
	clock []float64 // the peers' medians of one Evidence
}

// memoRuns is how many runs of its samples a GPU's memo keeps, the last
// worked out: the ranks asking about a GPU come one after another, with
// windows on a few clocks (one a host), so a few runs take nearly every
// question, and the memo stays a few entries a GPU however many ranks ask.
const memoRuns = 4

// runMemo is one GPU's last medians, by run of its samples [lo, hi)
// (Samples.Window).
type runMemo struct {
	lo, hi [memoRuns]int
	median [memoRuns]float64
	n      int // runs kept; the next is replaced at n % memoRuns
}

// NewClocks is Clocks of t, gpus = Map(t).
func NewClocks(t *model.Trace, gpus []int32) *Clocks {
	return &Clocks{t: t, gpus: gpus}
}

// Evidence is EvidenceWith with c's trace and map.
func (c *Clocks) Evidence(rank int32, peers []int32, from, to int64) (line result.Statement, ok bool) {
	ri := c.t.FindRank(rank)
	if ri < 0 || c.gpus[ri] < 0 {
		return line, false
	}
	base := c.t.Ranks[ri].ClockBase
	return c.Against(c.gpus[ri], Summarize(c.t, c.gpus[ri], base+from, base+to), peers, base+from, base+to)
}

// Against is Evidence of GPU g whose summary over [from, to) on the
// samples' clock is own (Summarize's), for a caller that has it already.
func (c *Clocks) Against(g int32, own Summary, peers []int32, from, to int64) (line result.Statement, ok bool) {
	if own.Samples == 0 {
		return line, false
	}
	return describe(c.t.SampleGPUs[g], own, c.peersMedian(peers, from, to)), true
}

// peersMedian is the median over the peers' GPUs of each one's median SM
// clock in [from, to), -1 when none has one.
func (c *Clocks) peersMedian(peers []int32, from, to int64) float64 {
	c.clock = c.clock[:0]
	for _, p := range peers {
		if pi := c.t.FindRank(p); pi >= 0 && c.gpus[pi] >= 0 {
			if m := c.median(c.gpus[pi], from, to); m > 0 {
				c.clock = append(c.clock, m)
			}
		}
	}
	return median(c.clock)
}

// median is GPU g's median SM clock in [from, to), from the memo when its
// samples there were asked about lately.
func (c *Clocks) median(g int32, from, to int64) float64 {
	lo, hi := c.window(g, from, to)
	mm := &c.memo[g]
	for j := range min(mm.n, memoRuns) {
		if mm.lo[j] == lo && mm.hi[j] == hi {
			return mm.median[j]
		}
	}
	var m float64
	m, c.buf = medianClock(&c.t.Samples, lo, hi, c.buf[:0])
	j := mm.n % memoRuns
	mm.lo[j], mm.hi[j], mm.median[j] = lo, hi, m
	mm.n++
	return m
}

// window is Samples.Window(g, from, to), searching the times of g's
// samples only.
func (c *Clocks) window(g int32, from, to int64) (lo, hi int) {
	s := &c.t.Samples
	if c.first == nil {
		c.first, c.memo = gpuStarts(s, len(c.t.SampleGPUs)), make([]runMemo, len(c.t.SampleGPUs))
	}
	a, b := c.first[g], c.first[g+1]
	at := func(t int64) int { return a + sort.Search(b-a, func(i int) bool { return s.Time(a+i) >= t }) }
	return at(from), at(to)
}

// gpuStarts is the index of each GPU's first sample (of n GPUs), and the
// samples' count last.
func gpuStarts(s *model.Samples, n int) []int {
	out := make([]int, n+1)
	for g := range out {
		out[g] = sort.Search(s.Len(), func(i int) bool { return s.GPU(i) >= int32(g) })
	}
	return out
}

// medianClock is Summarize's SMClockMHz of samples [lo, hi) without the
// other figures, reusing buf; it returns buf for the next call.
func medianClock(s *model.Samples, lo, hi int, buf []float64) (float64, []float64) {
	for i := lo; i < hi; i++ {
		buf = appendKnown(buf, float64(s.SMClock(i)))
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
