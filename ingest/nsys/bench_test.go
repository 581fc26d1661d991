package nsys

import (
	"context"
	"fmt"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/cputime"
	"github.com/tpptrace/tpptrace/samples/nsysw"
)

const benchKernels = 2_000_000

// bigExport writes a one-rank export (schema and metadata from nsysw),
// then fills it inside SQLite with n kernels, a launch call per kernel
// and one NVTX range per 1000 kernels.
func bigExport(b *testing.B, n int) string {
	b.Helper()
	tr := tinyJob()
	one := &model.Trace{Ranks: tr.Ranks[:1], Names: tr.Names, Streams: tr.Streams, Comms: tr.Comms, Colls: tr.Colls}
	lo, hi := tr.Events.RankRange(0)
	for i := lo; i < hi; i++ {
		one.Events.Append(tr.Events.At(i))
	}
	paths, err := nsysw.Write(b.TempDir(), one, nsysw.Options{})
	if err != nil {
		b.Fatal(err)
	}
	conn, err := sqlite3.Open(paths[0])
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	fill := fmt.Sprintf(`PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;
INSERT INTO StringIds VALUES (1000001, 'void ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_tn(Params)'), (1000002, 'cudaLaunchKernel_v7000');
WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM k WHERE i < %[1]d - 1)
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName,
  registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId)
SELECT 2000000 + i*1000, 2000000 + i*1000 + 800, 0, 1, 7 + i%%4, 1000000 + i, %[2]d, 1000001, 1000001, 128, 132, 1, 1, 256, 1, 1, 0, 0, 0, 0, i FROM k;
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue)
SELECT start - 900, start - 700, 0, %[2]d | 4000, correlationId, 1000002, 0 FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId >= 1000000;
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId)
SELECT start - 1000, start + 999000, 59, 'layer', %[2]d | 4000, 0 FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId >= 1000000 AND gridId %% 1000 = 0;
COMMIT;`, n, int64(1)<<48|4000<<24)
	if err := conn.Exec(fill); err != nil {
		b.Fatal(err)
	}
	return paths[0]
}

// peakHeap samples the Go heap (SQLite's wasm memory included) until stop.
func peakHeap(stop <-chan struct{}) func() uint64 {
	var mu sync.Mutex
	peak := uint64(0)
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		for {
			metrics.Read(s)
			mu.Lock()
			peak = max(peak, s[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() uint64 { mu.Lock(); defer mu.Unlock(); return peak }
}

func BenchmarkReadKernels(b *testing.B) {
	path := bigExport(b, benchKernels)
	stop := make(chan struct{})
	peak := peakHeap(stop)
	cpu0 := cputime.Process()
	rows := 0
	for b.Loop() {
		tr, err := Read(context.Background(), []string{path}, source.Options{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		rows = tr.Events.Len()
	}
	cpu := cputime.Process() - cpu0
	close(stop)
	if rows < 2*benchKernels {
		b.Fatalf("read %d events, want >= %d", rows, 2*benchKernels)
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(rows)*float64(b.N)/cpu.Seconds(), "rows/cpu-s")
	b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MB")
}
