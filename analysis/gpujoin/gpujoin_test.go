package gpujoin

import (
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/report/prose"
)

// slowGPUJob is two ranks on one host; rank 1's GPU runs at a throttled
// clock with a thermal slowdown reason during the window.
func slowGPUJob() *model.Trace {
	t := &model.Trace{}
	base := int64(1_700_000_000_000_000_000)
	t.AddRank(model.Rank{Rank: 0, Host: "node000.cluster", LocalGPU: 0, GPUUUID: "GPU-aaa", ClockBase: base})
	t.AddRank(model.Rank{Rank: 1, Host: "node000", LocalGPU: 1, BusID: "0000:19:00.0", ClockBase: base})
	t.SampleGPUs = []model.SampledGPU{
		{Host: "node000", Index: 0, UUID: "GPU-AAA", BusID: "00000000:18:00.0"},
		{Host: "node000", Index: 1, UUID: "GPU-bbb", BusID: "00000000:19:00.0"},
		{Host: "node001", Index: 1, UUID: "GPU-ccc"},
	}
	for i := int64(0); i < 10; i++ {
		ts := base + i*100_000_000
		t.Samples.Append(model.GPUSample{GPU: 0, TimeNs: ts, SMClockMHz: 1980, SMUtil: 99, PowerMW: 690_000, TempC: 70})
		t.Samples.Append(model.GPUSample{GPU: 1, TimeNs: ts, SMClockMHz: 1410, SMUtil: 99, PowerMW: 500_000, TempC: 91, ClockReasons: 64,
			XID: int32(i / 9 * 79)})
		t.Samples.Append(model.GPUSample{GPU: 2, TimeNs: ts, SMClockMHz: 1000})
	}
	t.Samples.Sort()
	return t
}

func TestMapByUUIDThenBusID(t *testing.T) {
	got := Map(slowGPUJob())
	if got[0] != 0 || got[1] != 1 {
		t.Fatalf("Map = %v, want [0 1] (UUID case-insensitively with a domain-qualified host, then bus id)", got)
	}
}

func TestMapFallsBackToIndexOnSameHostOnly(t *testing.T) {
	tr := slowGPUJob()
	tr.Ranks[1].BusID, tr.Ranks[1].Host = "", "node001"
	if got := Map(tr); got[1] != 2 {
		t.Fatalf("rank 1 on node001 GPU 1 should map to sampled GPU 2, got %d", got[1])
	}
	tr.Ranks[1].Host = "node009"
	if got := Map(tr); got[1] != -1 {
		t.Fatalf("a rank on an unsampled host must not map, got %d", got[1])
	}
}

func TestEvidenceNamesClockAndReason(t *testing.T) {
	st, ok := Evidence(slowGPUJob(), 1, []int32{0}, 0, 2_000_000_000)
	line := prose.Sentence(nil, st)
	if !ok {
		t.Fatal("no evidence")
	}
	for _, want := range []string{"SM clock 1,410 MHz vs 1,980 MHz on its peers", "91 °C", "HW slowdown: thermal", "XID 79"} {
		if !strings.Contains(line, want) {
			t.Errorf("evidence %q lacks %q", line, want)
		}
	}
}

func TestEvidenceOutsideWindow(t *testing.T) {
	if _, ok := Evidence(slowGPUJob(), 1, []int32{0}, 5e9, 6e9); ok {
		t.Fatal("a window with no samples must give no evidence")
	}
}
