package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPackedKeepsEveryValue appends values of every width, extremes
// included, and reads each back.
func TestPackedKeepsEveryValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var p Packed
	var want []int64
	for i := range 1000 {
		v := rng.Int64N(1<<(8*(i/128%8))) - 3
		switch i % 97 {
		case 5:
			v = math.MinInt64
		case 6:
			v = math.MaxInt64
		}
		p.Append(v)
		want = append(want, v)
	}
	if p.Len() != len(want) {
		t.Fatalf("len %d, want %d", p.Len(), len(want))
	}
	for i, v := range want {
		if got := p.At(i); got != v {
			t.Fatalf("value %d = %d, want %d", i, got, v)
		}
	}
}

// TestPackedIsNarrow: a constant column costs under half a byte per value
// (the block headers), a percentage under two (a byte, headers, slack).
func TestPackedIsNarrow(t *testing.T) {
	var constant, pct Packed
	for i := range 128 * 100 {
		constant.Append(-1)
		pct.Append(int64(i % 101))
	}
	if b := constant.Bytes(); b > 128*100/2 {
		t.Errorf("a constant column of 12,800 values holds %d B", b)
	}
	if b := pct.Bytes(); b > 128*100*2 {
		t.Errorf("a percentage column of 12,800 values holds %d B", b)
	}
}

func TestSamplesSortAndWindow(t *testing.T) {
	var s Samples
	for i := range 600 {
		s.Append(GPUSample{GPU: int32(2 - i%3), TimeNs: int64(1000 - i), SMUtil: int32(i % 100), GPMSMUtil: -1, GPMTensorUtil: 12.5})
	}
	s.Sort()
	if !s.Sorted() {
		t.Fatal("not sorted after Sort")
	}
	x := s.At(0)
	if x.GPU != 0 || x.TimeNs != 1000-599 || x.GPMSMUtil != -1 || x.GPMTensorUtil != 12.5 || x.SMUtil != 599%100 {
		t.Fatalf("first sample %+v", x)
	}
	lo, hi := s.Window(1, 500, 600)
	for i := lo; i < hi; i++ {
		if s.GPU(i) != 1 || s.Time(i) < 500 || s.Time(i) >= 600 {
			t.Fatalf("sample %d in the window: GPU %d time %d", i, s.GPU(i), s.Time(i))
		}
	}
	if hi-lo != 33 {
		t.Errorf("window holds %d samples, want 33", hi-lo)
	}
}

func TestMergeKeepsAGPUsIdentityOnce(t *testing.T) {
	part := func(v int32) *Trace {
		p := &Trace{SampleGPUs: []SampledGPU{{Host: "n0", Index: 0, UUID: "GPU-a"}, {Host: "n0", Index: v, UUID: "GPU-b"}}}
		p.Samples.Append(GPUSample{GPU: 1, TimeNs: int64(v)})
		return p
	}
	var t0 Trace
	t0.appendSamples(part(1))
	t0.appendSamples(part(1))
	t0.appendSamples(part(2))
	if len(t0.SampleGPUs) != 3 || t0.Samples.Len() != 3 || t0.Samples.GPU(2) != 2 || t0.Samples.GPU(1) != 1 {
		t.Fatalf("GPUs %+v, %d samples", t0.SampleGPUs, t0.Samples.Len())
	}
}
