// Package gpujoin joins NVML GPU samples to the ranks of a trace: which
// sampled GPU each rank ran on (host + UUID, else bus id, else device index)
// and what that GPU did during a window of the rank's timeline, compared with
// its peers' GPUs. Samples carry the host's wall clock; a rank's time t is
// wall-clock ClockBase+t.
package gpujoin

import (
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// Map returns, for each entry of t.Ranks, the index into t.SampleGPUs of
// the GPU it ran on, or -1. It indexes the sampled GPUs by host once, so it
// costs O(ranks + GPUs), not O(ranks × GPUs).
func Map(t *model.Trace) []int32 {
	byHost := hostIndex(t.SampleGPUs)
	out := make([]int32, len(t.Ranks))
	for i, r := range t.Ranks {
		out[i] = find(t.SampleGPUs, byHost[shortHost(r.Host)], r)
	}
	return out
}

// hostIndex lists, for each short host name (shortHost), the indexes of
// the GPUs sampled on it in increasing order. GPUs without a host are left
// out: they match no rank.
func hostIndex(gpus []model.SampledGPU) map[string][]int32 {
	byHost := map[string][]int32{}
	for i, g := range gpus {
		if g.Host != "" {
			h := shortHost(g.Host)
			byHost[h] = append(byHost[h], int32(i))
		}
	}
	return byHost
}

// find picks, among onHost (the indexes of the GPUs on r's host, in
// increasing order), the first that has r's UUID, else its bus id, else
// its local index; -1 when none does.
func find(gpus []model.SampledGPU, onHost []int32, r model.Rank) int32 {
	match := func(ok func(g model.SampledGPU) bool) int32 {
		for _, i := range onHost {
			if ok(gpus[i]) {
				return i
			}
		}
		return -1
	}
	if r.GPUUUID != "" {
		if i := match(func(g model.SampledGPU) bool { return strings.EqualFold(g.UUID, r.GPUUUID) }); i >= 0 {
			return i
		}
	}
	if r.BusID != "" {
		if i := match(func(g model.SampledGPU) bool { return busEqual(g.BusID, r.BusID) }); i >= 0 {
			return i
		}
	}
	if r.LocalGPU < 0 {
		return -1
	}
	return match(func(g model.SampledGPU) bool { return g.Index == r.LocalGPU })
}

// shortHost is a host name in lower case without its domain part: two
// hosts are the same when their short names are.
func shortHost(s string) string {
	h, _, _ := strings.Cut(strings.ToLower(s), ".")
	return h
}

// busEqual compares PCI bus ids, ignoring case and the width of the domain
// ("00000000:18:00.0" = "0000:18:00.0").
func busEqual(a, b string) bool {
	norm := func(s string) string {
		dom, rest, ok := strings.Cut(strings.ToLower(s), ":")
		if !ok {
			return s
		}
		return strings.TrimLeft(dom, "0") + ":" + rest
	}
	return norm(a) == norm(b)
}

// Summary is what one GPU did in a window: medians, and every clock-event
// reason and XID seen.
type Summary struct {
	Samples    int
	SMClockMHz float64
	SMUtil     float64
	PowerW     float64
	TempC      float64
	Reasons    uint64
	XIDs       []int32
}

// Summarize summarizes GPU g's samples with TimeNs in [from, to). The
// trace's samples are sorted (by GPU, then time), so only the window's
// are read.
func Summarize(t *model.Trace, g int32, from, to int64) Summary {
	var s Summary
	var clk, util, pw, temp []float64
	lo, hi := t.Samples.Window(g, from, to)
	for i := lo; i < hi; i++ {
		x := t.Samples.At(i)
		s.Samples++
		clk, util = appendKnown(clk, float64(x.SMClockMHz)), appendKnown(util, float64(x.SMUtil))
		pw, temp = appendKnown(pw, float64(x.PowerMW)/1000), appendKnown(temp, float64(x.TempC))
		s.Reasons |= x.ClockReasons
		if x.XID != 0 && !slices.Contains(s.XIDs, x.XID) {
			s.XIDs = append(s.XIDs, x.XID)
		}
	}
	s.SMClockMHz, s.SMUtil, s.PowerW, s.TempC = median(clk), median(util), median(pw), median(temp)
	return s
}

func appendKnown(s []float64, v float64) []float64 {
	if v < 0 {
		return s
	}
	return append(s, v)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return -1
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}
