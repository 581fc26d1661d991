// Package nvmlw writes the GPU samples that `tpptrace sample` would have
// recorded during a simulated job: one Parquet file per host, every GPU
// sampled at a fixed interval over the job's wall-clock span. GPUs run at
// their full SM clock with high utilization, except the slow rank's GPU,
// which runs at a clock lowered by the job's slow factor with the NVML
// "HW slowdown: thermal" reason set and a higher temperature — the evidence
// a slow-rank finding should cite.
package nvmlw

import (
	"fmt"
	"path/filepath"

	"github.com/tpptrace/tpptrace/ingest/nvml"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

// Interval between generated sampling passes.
const Interval = int64(10_000_000)

// Full-speed and throttled GPU figures.
const (
	fullClockMHz = 1980
	hwThermal    = 64 // NVML ClocksThrottleReasonHwThermalSlowdown
)

// Write writes samples-<host>.parquet files for job into dir and returns their paths.
func Write(dir string, job *samples.Job) ([]string, error) {
	byHost := Rows(job)
	var paths []string
	for _, host := range sortedHosts(job.Trace) {
		p := filepath.Join(dir, fmt.Sprintf("samples-%s.parquet", host))
		if err := nvml.WriteFile(p, byHost[host]); err != nil {
			return nil, fmt.Errorf("write samples for %s: %w", host, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// Rows returns the generated rows per host.
func Rows(job *samples.Job) map[string][]nvml.Row {
	from, to := span(job.Trace)
	out := map[string][]nvml.Row{}
	for _, r := range job.Trace.Ranks {
		slow := int(r.Rank) == job.Config.SlowRank && job.Config.SlowFactor > 1
		for ts := from - Interval; ts <= to+Interval; ts += Interval {
			out[r.Host] = append(out[r.Host], row(r, r.ClockBase+ts, slow, job.Config.SlowFactor))
		}
	}
	return out
}

func row(r model.Rank, wall int64, slow bool, factor float64) nvml.Row {
	x := nvml.Row{Host: r.Host, GPUIndex: r.LocalGPU, UUID: fmt.Sprintf("GPU-%s-%d", r.Host, r.LocalGPU),
		Name: r.GPUName, TimeNs: wall, SMUtil: 97, MemUtil: 45, SMClockMHz: fullClockMHz, MemClockMHz: 2619,
		PowerMW: 640_000, PowerLimitMW: 700_000, TempC: 68, MemUsedBytes: 62 << 30, PCIeTxKBs: 900, PCIeRxKBs: 1100,
		NVLinkTxKBs: 90_000_000, NVLinkRxKBs: 90_000_000, GPMSMUtil: 88, GPMTensorUtil: 61}
	if slow {
		x.SMClockMHz = int32(float64(fullClockMHz)/factor + 0.5)
		x.ClockReasons, x.TempC, x.PowerMW = hwThermal, 91, 520_000
	}
	return x
}

// span is the time range covered by the trace's events, on the ranks' clocks.
func span(t *model.Trace) (from, to int64) {
	ev := &t.Events
	if ev.Len() == 0 {
		return 0, 0
	}
	from, to = ev.Start[0], ev.Start[0]
	for i := 0; i < ev.Len(); i++ {
		from, to = min(from, ev.Start[i]), max(to, ev.Start[i]+ev.Dur[i])
	}
	return from, to
}

func sortedHosts(t *model.Trace) []string {
	var hosts []string
	seen := map[string]bool{}
	for _, r := range t.Ranks {
		if !seen[r.Host] {
			seen[r.Host] = true
			hosts = append(hosts, r.Host)
		}
	}
	return hosts
}
