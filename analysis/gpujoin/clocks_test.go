package gpujoin

import (
	"testing"

	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/report/prose"
)

// driftingClocks is n ranks, each on its own sampled GPU whose SM clock
// changes from sample to sample (so that two runs of samples seldom have
// one median), with clock offsets of a few ms (so that the ranks' windows
// cover the same runs of samples, or runs one sample apart at either end).
func driftingClocks(n int) *model.Trace {
	t := &model.Trace{}
	base := int64(1_700_000_000_000_000_000)
	for i := range int32(n) {
		t.AddRank(model.Rank{Rank: i, Host: "node000", LocalGPU: i, ClockBase: base + int64(i%5)*7_000_000})
		t.SampleGPUs = append(t.SampleGPUs, model.SampledGPU{Host: "node000", Index: i})
		for s := int64(0); s < 60; s++ {
			t.Samples.Append(model.GPUSample{GPU: i, TimeNs: base + s*10_000_000, SMClockMHz: int32(1200 + (s*37+int64(i)*11)%700), TempC: -1})
		}
	}
	t.Samples.Sort()
	return t
}

// peerClockReference is the median over the peers' GPUs of each one's
// median SM clock in the rank's window, as Summarize works it out.
func peerClockReference(t *model.Trace, gpus []int32, peers []int32, from, to int64) float64 {
	var clocks []float64
	for _, p := range peers {
		if c := Summarize(t, gpus[t.FindRank(p)], from, to).SMClockMHz; c > 0 {
			clocks = append(clocks, c)
		}
	}
	return median(clocks)
}

// TestClocksSharedEqualsReference asks one Clocks about every rank of a
// job, over windows that start and end at many offsets, and compares each
// answer with the statement built from Summarize's medians: sharing the
// medians between ranks must not change a figure.
func TestClocksSharedEqualsReference(t *testing.T) {
	tr := driftingClocks(12)
	gpus := Map(tr)
	c := NewClocks(tr, gpus)
	for r := range int32(12) {
		peers := []int32{}
		for p := range int32(12) {
			if p != r {
				peers = append(peers, p)
			}
		}
		for _, w := range [][2]int64{{0, 600_000_000}, {int64(r) * 3_000_000, 400_000_000}, {50_000_000, 100_000_000 + int64(r)*4_000_000}} {
			got, ok := c.Evidence(r, peers, w[0], w[1])
			base := tr.Ranks[r].ClockBase
			own := Summarize(tr, gpus[r], base+w[0], base+w[1])
			want := describe(tr.SampleGPUs[gpus[r]], own, peerClockReference(tr, gpus, peers, base+w[0], base+w[1]))
			if !ok || prose.Sentence(nil, got) != prose.Sentence(nil, want) {
				t.Fatalf("rank %d window %v: %q (%v), want %q", r, w, prose.Sentence(nil, got), ok, prose.Sentence(nil, want))
			}
		}
	}
	worked := 0
	for _, m := range c.memo {
		worked += m.n
	}
	if worked >= 12*11*3 {
		t.Errorf("%d medians worked out for %d questions: none shared", worked, 12*11*3)
	}
}

// TestSMClockEqualsAt checks the one-field accessor against At.
func TestSMClockEqualsAt(t *testing.T) {
	tr := driftingClocks(3)
	for i := range tr.Samples.Len() {
		if got, want := tr.Samples.SMClock(i), tr.Samples.At(i).SMClockMHz; got != want {
			t.Fatalf("sample %d: SMClock %d, At %d", i, got, want)
		}
	}
}
