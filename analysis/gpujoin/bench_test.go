package gpujoin

import (
	"fmt"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// benchJob is n ranks, 8 per host, each on its own sampled GPU with 20
// samples a second for 2 s, as 'samples gen --formats nvml' writes them.
func benchJob(n int) *model.Trace {
	t := &model.Trace{}
	base := int64(1_700_000_000_000_000_000)
	for i := range n {
		host := fmt.Sprintf("node%03d", i/8)
		t.AddRank(model.Rank{Rank: int32(i), Host: host, LocalGPU: int32(i % 8), GPUUUID: fmt.Sprintf("GPU-%04d", i), ClockBase: base})
		t.SampleGPUs = append(t.SampleGPUs, model.SampledGPU{Host: host, Index: int32(i % 8), UUID: fmt.Sprintf("GPU-%04d", i)})
		for s := int64(0); s < 40; s++ {
			t.Samples.Append(model.GPUSample{GPU: int32(i), TimeNs: base + s*50_000_000, SMClockMHz: int32(1980 - i%3), SMUtil: 99, PowerMW: 600_000, TempC: 70})
		}
	}
	t.Samples.Sort()
	return t
}

// BenchmarkEvidenceAllRanks is what the analysis asks of the GPU samples
// each step: every rank's evidence against its 8 peers, at two sizes. Per
// rank it must stay flat from 128 to 1,024 ranks (it once grew with the
// square of the ranks: Evidence mapped every rank to its GPU for each rank).
func BenchmarkEvidenceAllRanks(b *testing.B) {
	for _, n := range []int{128, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := benchJob(n)
			b.ResetTimer()
			for range b.N {
				gpus := Map(t)
				for r := range int32(n) {
					peers := make([]int32, 0, 8)
					for p := r &^ 7; p < r&^7+8; p++ {
						if p != r {
							peers = append(peers, p)
						}
					}
					if _, ok := EvidenceWith(t, gpus, r, peers, 0, 2_000_000_000); !ok {
						b.Fatal("no evidence")
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/rank")
		})
	}
}

// BenchmarkEvidenceStage is what gpuStep asks: every rank's evidence
// against the other ranks of its stage (a quarter of the job, as for four
// pipeline stages), with one Clocks for the job (shared) and with a new
// one for each rank (fresh: every peer's window read again, ranks² / 4
// window reads). Shared must stay about flat per rank from 256 to 1,024.
func BenchmarkEvidenceStage(b *testing.B) {
	for _, n := range []int{256, 1024} {
		t := benchJob(n)
		gpus := Map(t)
		stage := func(r int32) []int32 {
			var peers []int32
			for p := range int32(n) {
				if p%4 == r%4 && p != r {
					peers = append(peers, p)
				}
			}
			return peers
		}
		for _, shared := range []bool{true, false} {
			b.Run(fmt.Sprintf("%d/shared=%v", n, shared), func(b *testing.B) {
				for range b.N {
					c := NewClocks(t, gpus)
					for r := range int32(n) {
						if !shared {
							c = NewClocks(t, gpus)
						}
						if _, ok := c.Evidence(r, stage(r), 0, 2_000_000_000); !ok {
							b.Fatal("no evidence")
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/rank")
			})
		}
	}
}
