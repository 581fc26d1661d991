// Package summary computes the summary tables users of HTA and Nsight
// Systems look for, from the normalized model and the Result of its
// analysis: HTA's temporal breakdown with communication/computation
// overlap and kernel types per rank (Breakdown), per-kernel statistics
// (Kernels, like nsys's cuda_gpu_kern_sum), per-communicator collective
// statistics with wait, transfer and bus bandwidth (NCCL, like nccl_sum)
// and per-range annotation statistics (NVTX, like nvtx_sum). The views in
// report render them; nothing here formats text.
package summary

import (
	"github.com/tpptrace/tpptrace/analysis/result/tables"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// Window says which events a summary covers: those of the analysed steps
// (by the event's iteration), or every event when the Result names no
// step or no event carries one of its iterations.
type Window struct {
	iters map[int32]bool
	All   bool // every event: no analysed step could be told
}

// StepsOf is the window of res's analysed steps over t.
func StepsOf(t *model.Trace, res *result.Result) Window {
	w := Window{iters: map[int32]bool{}}
	for _, it := range res.Iterations {
		w.iters[int32(it.Index)] = true
	}
	if len(w.iters) == 0 || !slices.ContainsFunc(t.Events.Iter, func(i int32) bool { return w.iters[i] }) {
		return Window{All: true}
	}
	return w
}

// Holds tells whether event i of t lies in the window.
func (w Window) Holds(t *model.Trace, i int) bool { return w.All || w.iters[t.Events.Iter[i]] }

// Steps is the number of steps the window covers, at least 1.
func (w Window) Steps() int { return max(1, len(w.iters)) }

// Stats is tables.Stats.
type Stats = tables.Stats

// statsOf summarises durations (sorted in place); share is left 0.
func statsOf(d []int64) Stats {
	if len(d) == 0 {
		return Stats{}
	}
	slices.Sort(d)
	s := Stats{Count: len(d), MinNs: d[0], MaxNs: d[len(d)-1], MedNs: median(d)}
	for _, x := range d {
		s.TotalNs += x
	}
	s.MeanNs = float64(s.TotalNs) / float64(len(d))
	return s
}

// median of sorted d: the mean of the middle two for an even count.
func median(d []int64) int64 {
	n := len(d)
	if n%2 == 1 {
		return d[n/2]
	}
	return (d[n/2-1] + d[n/2]) / 2
}

// setShares sets each Stats' share of their summed total.
func setShares(ss []*Stats) {
	var tot int64
	for _, s := range ss {
		tot += s.TotalNs
	}
	for _, s := range ss {
		if tot > 0 {
			s.Share = float64(s.TotalNs) / float64(tot)
		}
	}
}
