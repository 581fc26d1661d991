package model

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// sampleFields is the number of columns of Samples: GPUSample's fields.
const sampleFields = 19

// Samples holds GPU samples column-wise, every column Packed, so that a
// sample costs tens of bytes or fewer (each value in the bytes its block's
// range needs; a constant column, such as a value the GPU does not
// support, next to nothing) however the samples were read. Rows are sorted
// by GPU, then time (see Sort). The zero value is empty.
type Samples struct {
	cols [sampleFields]Packed
}

// Len is the number of samples.
func (s *Samples) Len() int { return s.cols[0].Len() }

// Grow makes room for the block headers of n more samples (the values'
// bytes are not known until they are seen).
func (s *Samples) Grow(n int) {
	for c := range s.cols {
		s.cols[c].Grow(n)
	}
}

// Append adds one sample.
func (s *Samples) Append(x GPUSample) {
	v := x.values()
	for c := range v {
		s.cols[c].Append(v[c])
	}
}

// At returns sample i.
func (s *Samples) At(i int) GPUSample {
	var v [sampleFields]int64
	for c := range v {
		v[c] = s.cols[c].At(i)
	}
	return sampleOf(v)
}

// GPU returns sample i's GPU, an index into Trace.SampleGPUs.
func (s *Samples) GPU(i int) int32 { return int32(s.cols[0].At(i)) }

// Time returns sample i's time.
func (s *Samples) Time(i int) int64 { return s.cols[1].At(i) }

// SMClock returns sample i's SMClockMHz (At's, without the other fields).
func (s *Samples) SMClock(i int) int32 { return int32(s.cols[4].At(i)) }

// Window returns the half-open range [lo, hi) of GPU g's samples with a
// time in [from, to). Samples must be sorted.
func (s *Samples) Window(g int32, from, to int64) (lo, hi int) {
	before := func(gpu int32, t int64) func(int) bool {
		return func(i int) bool { return cmp.Or(cmp.Compare(s.GPU(i), gpu), cmp.Compare(s.Time(i), t)) >= 0 }
	}
	return sort.Search(s.Len(), before(g, from)), sort.Search(s.Len(), before(g, to))
}

// Sorted reports whether the samples are in GPU, then time order.
func (s *Samples) Sorted() bool {
	for i := 1; i < s.Len(); i++ {
		if s.less(i, i-1) {
			return false
		}
	}
	return true
}

func (s *Samples) less(i, j int) bool {
	return cmp.Or(cmp.Compare(s.GPU(i), s.GPU(j)), cmp.Compare(s.Time(i), s.Time(j))) < 0
}

// Sort orders the samples by GPU, then time. It is stable, and costs
// nothing more than a check when they are in order already.
func (s *Samples) Sort() {
	if s.Sorted() {
		return
	}
	perm := make([]int32, s.Len())
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortStableFunc(perm, func(a, b int32) int {
		return cmp.Or(cmp.Compare(s.GPU(int(a)), s.GPU(int(b))), cmp.Compare(s.Time(int(a)), s.Time(int(b))))
	})
	var out Samples
	for _, p := range perm {
		out.Append(s.At(int(p)))
	}
	*s = out
}

// clone returns a copy that shares no memory with s.
func (s *Samples) clone() Samples {
	var out Samples
	for c := range s.cols {
		out.cols[c] = s.cols[c].clone()
	}
	return out
}

// Bytes is the memory the samples hold, for tests and benchmarks.
func (s *Samples) Bytes() int {
	n := 0
	for c := range s.cols {
		n += s.cols[c].Bytes()
	}
	return n
}

// values is x as one int64 per column; floats by their bits.
func (x GPUSample) values() [sampleFields]int64 {
	return [sampleFields]int64{int64(x.GPU), x.TimeNs, int64(x.SMUtil), int64(x.MemUtil), int64(x.SMClockMHz),
		int64(x.MemClockMHz), int64(x.PowerMW), int64(x.PowerLimitMW), int64(x.TempC), x.MemUsedBytes,
		int64(x.ClockReasons), int64(x.PCIeTxKBs), int64(x.PCIeRxKBs), x.NVLinkTxKBs, x.NVLinkRxKBs,
		x.ECCUncorrected, int64(x.XID), int64(math.Float64bits(x.GPMSMUtil)), int64(math.Float64bits(x.GPMTensorUtil))}
}

func sampleOf(v [sampleFields]int64) GPUSample {
	return GPUSample{GPU: int32(v[0]), TimeNs: v[1], SMUtil: int32(v[2]), MemUtil: int32(v[3]), SMClockMHz: int32(v[4]),
		MemClockMHz: int32(v[5]), PowerMW: int32(v[6]), PowerLimitMW: int32(v[7]), TempC: int32(v[8]), MemUsedBytes: v[9],
		ClockReasons: uint64(v[10]), PCIeTxKBs: int32(v[11]), PCIeRxKBs: int32(v[12]), NVLinkTxKBs: v[13], NVLinkRxKBs: v[14],
		ECCUncorrected: v[15], XID: int32(v[16]), GPMSMUtil: math.Float64frombits(uint64(v[17])),
		GPMTensorUtil: math.Float64frombits(uint64(v[18]))}
}
