package gpujoin

import (
	"fmt"
	"slices"
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

// mapReference is Map as it was first written: for each rank, a scan of
// every sampled GPU (O(ranks × GPUs)), kept as the truth the indexed Map
// must equal.
func mapReference(t *model.Trace) []int32 {
	sameHost := func(a, b string) bool {
		short := func(s string) string { h, _, _ := strings.Cut(strings.ToLower(s), "."); return h }
		return a != "" && short(a) == short(b)
	}
	out := make([]int32, len(t.Ranks))
	for ri, r := range t.Ranks {
		out[ri] = -1
		for _, ok := range []func(g model.SampledGPU) bool{
			func(g model.SampledGPU) bool { return r.GPUUUID != "" && strings.EqualFold(g.UUID, r.GPUUUID) },
			func(g model.SampledGPU) bool { return r.BusID != "" && busEqual(g.BusID, r.BusID) },
			func(g model.SampledGPU) bool { return r.LocalGPU >= 0 && g.Index == r.LocalGPU },
		} {
			for i, g := range t.SampleGPUs {
				if out[ri] < 0 && sameHost(g.Host, r.Host) && ok(g) {
					out[ri] = int32(i)
				}
			}
			if out[ri] >= 0 {
				break
			}
		}
	}
	return out
}

// mixedHosts is a job whose ranks and GPUs mix every way of naming a GPU
// and a host: UUIDs in either case, bus ids of either domain width,
// domain-qualified or upper-case hosts, hosts with no sampled GPU, sampled
// GPUs with no host or a host that is only a domain (".x"), and duplicates.
func mixedHosts(n int) *model.Trace {
	t := &model.Trace{}
	hosts := []string{"node%03d", "NODE%03d.cluster", "node%03d.a.b", "", ".x", "other%03d"}
	for i := range n {
		h := fmt.Sprintf(hosts[i%len(hosts)], i/8%5)
		if hosts[i%len(hosts)] == "" || hosts[i%len(hosts)] == ".x" {
			h = hosts[i%len(hosts)]
		}
		r := model.Rank{Rank: int32(i), Host: h, LocalGPU: int32(i%9 - 1)}
		switch i % 4 {
		case 0:
			r.GPUUUID = fmt.Sprintf("GPU-%x", i%13)
		case 1:
			r.BusID = fmt.Sprintf("0000:%02x:00.0", i%7)
		case 2:
			r.GPUUUID, r.BusID = "GPU-none", fmt.Sprintf("00000000:%02X:00.0", i%7)
		}
		t.AddRank(r)
		g := model.SampledGPU{Host: strings.ToUpper(fmt.Sprintf(hosts[(i+1)%len(hosts)], i/7%5)), Index: int32(i % 8),
			UUID: fmt.Sprintf("gpu-%X", i%11), BusID: fmt.Sprintf("00000000:%02x:00.0", i%5)}
		if hosts[(i+1)%len(hosts)] == "" || hosts[(i+1)%len(hosts)] == ".x" {
			g.Host = hosts[(i+1)%len(hosts)]
		}
		t.SampleGPUs = append(t.SampleGPUs, g)
	}
	return t
}

func TestMapEqualsReference(t *testing.T) {
	for _, n := range []int{0, 1, 7, 64, 301} {
		tr := mixedHosts(n)
		got, want := Map(tr), mapReference(tr)
		if !slices.Equal(got, want) {
			t.Fatalf("%d ranks: Map = %v\nreference = %v", n, got, want)
		}
		if n == 301 && slices.Equal(want, make([]int32, n)) || n == 301 && !slices.ContainsFunc(want, func(g int32) bool { return g > 0 }) {
			t.Fatalf("the case maps no rank, so it tests nothing: %v", want)
		}
	}
}

func TestEvidenceWithEqualsEvidence(t *testing.T) {
	tr := slowGPUJob()
	a, okA := Evidence(tr, 1, []int32{0}, 0, 2_000_000_000)
	b, okB := EvidenceWith(tr, Map(tr), 1, []int32{0}, 0, 2_000_000_000)
	if okA != okB || prose.Sentence(nil, a) != prose.Sentence(nil, b) {
		t.Fatalf("Evidence %q (%v) vs EvidenceWith %q (%v)", prose.Sentence(nil, a), okA, prose.Sentence(nil, b), okB)
	}
	lo, hi := tr.Samples.Window(1, tr.Ranks[1].ClockBase, tr.Ranks[1].ClockBase+2_000_000_000)
	if c, _ := medianClock(&tr.Samples, lo, hi, nil); c != Summarize(tr, 1, tr.Ranks[1].ClockBase, tr.Ranks[1].ClockBase+2_000_000_000).SMClockMHz || c != 1410 {
		t.Fatalf("medianClock = %v, want Summarize's 1410", c)
	}
}
