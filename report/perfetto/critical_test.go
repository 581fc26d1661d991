package perfetto

import (
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

// TestCriticalPathFlows: each critical-path op is a slice on its rank's
// critical-path track, and consecutive ops are joined by one flow (start
// on the earlier op's rank, end on the later's).
func TestCriticalPathFlows(t *testing.T) {
	r := fixture.Result(fixture.Small())
	r.WhatIf = &result.WhatIf{CriticalPathStep: 3, CriticalPathOps: []result.PathOp{
		{Rank: 0, Name: "gemm", StartNs: 1000, EndNs: 5000, Category: "compute stage 0"},
		{Rank: 1, Name: "PP:ncclDevKernel_SendRecv", StartNs: 5000, EndNs: 6000, Category: "PP transfer"},
		{Rank: 1, Name: "gemm", StartNs: 6000, EndNs: 9000, Category: "compute stage 1"},
	}}
	var slices, starts, ends int
	for _, ev := range export(t, r, nil) {
		if ev.Cat != "critical_path" {
			continue
		}
		switch ev.Ph {
		case "X":
			slices++
			if ev.Tid != criticalTid {
				t.Errorf("slice on tid %d", ev.Tid)
			}
		case "s":
			starts++
		case "f":
			ends++
			if ev.Pid != int(pid(1)) {
				t.Errorf("flow ends on pid %d, want rank 1's", ev.Pid)
			}
		}
	}
	if slices != 3 || starts != 2 || ends != 2 {
		t.Fatalf("%d slices, %d flow starts, %d flow ends; want 3, 2, 2", slices, starts, ends)
	}
}
