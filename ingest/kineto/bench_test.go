package kineto

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/cputime"
	"github.com/tpptrace/tpptrace/samples/kinetow"
	"github.com/tpptrace/tpptrace/samples/shared"
)

// genTrace writes a Kineto-style trace of about mb megabytes, laid out as
// Kineto writes it (one key group per line), with a realistic mix: CPU ops
// with shapes, launches, kernels with full args, flows, and every 50th
// group an NCCL all-reduce with record_param_comms and annotations. It
// returns the number of complete events.
func genTrace(tb testing.TB, path string, mb int) int {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprint(w, `{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 8, "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "ranks": [0,1,2,3,4,5,6,7]}]},
  "traceEvents": [
`)
	n, ts := 0, int64(4458676416788066)
	for g := 0; writtenMB(f, w) < int64(mb); g++ {
		if g%2000 == 0 {
			fmt.Fprintf(w, "  {\n    \"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\", \"pid\": 2910249, \"tid\": 2910249,\n    \"ts\": %d.%03d, \"dur\": %d.%03d,\n    \"args\": {\n      \"External id\": %d, \"Record function id\": 1, \"Ev Idx\": %d\n    }\n  },\n", g/2000, ts/1000, ts%1000, 2000*40, 123, g, g)
			n++
		}
		n += genGroup(w, g, ts)
		ts += 40_000
	}
	fmt.Fprint(w, `  {"name": "process_name", "ph": "M", "ts": 1, "pid": 0, "tid": 0, "args": {"name": "python3"}}
  ], "baseTimeNanoseconds": 1711964646000000000, "traceName": "bench"}`)
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return n
}

func writtenMB(f *os.File, w *bufio.Writer) int64 {
	st, _ := f.Stat()
	return (st.Size() + int64(w.Buffered())) >> 20
}

// genGroup writes one op: cpu_op, nested op, launch, kernel, flow pair; and
// every 50th group an NCCL all-reduce. It returns the complete events written.
func genGroup(w *bufio.Writer, g int, ts int64) int {
	c := 100000 + g
	fmt.Fprintf(w, "  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::linear\", \"pid\": 2910249, \"tid\": 2919752,\n    \"ts\": %d.%03d, \"dur\": 35.%03d,\n    \"args\": {\n      \"External id\": %d, \"Record function id\": %d, \"Ev Idx\": %d, \"Input Dims\": [[4096, 8192], [8192, 8192], []], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"\"]\n    }\n  },\n", ts/1000, ts%1000, g%1000, c, c, g)
	fmt.Fprintf(w, "  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 2910249, \"tid\": 2919752,\n    \"ts\": %d.%03d, \"dur\": 20.5,\n    \"args\": {\n      \"External id\": %d, \"Ev Idx\": %d, \"Sequence number\": %d, \"Fwd thread id\": 1\n    }\n  },\n", ts/1000+2, ts%1000, c+1, g, g)
	fmt.Fprintf(w, "  {\n    \"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 2910249, \"tid\": 2919752,\n    \"ts\": %d.%03d, \"dur\": 6.250,\n    \"args\": {\n      \"External id\": %d, \"cbid\": 211, \"correlation\": %d\n    }\n  },\n", ts/1000+5, ts%1000, c+1, c)
	fmt.Fprintf(w, "  {\n    \"ph\": \"s\", \"id\": %d, \"pid\": 2910249, \"tid\": 2919752, \"ts\": %d.%03d,\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"\n  },\n", c, ts/1000+5, ts%1000)
	fmt.Fprintf(w, "  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas\", \"pid\": 0, \"tid\": 7,\n    \"ts\": %d.%03d, \"dur\": 31.%03d,\n    \"args\": {\n      \"External id\": %d, \"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": 7, \"correlation\": %d, \"registers per thread\": 168, \"shared memory\": 213248, \"blocks per SM\": 0.984848, \"warps per SM\": 11.818182, \"grid\": [1, 130, 1], \"block\": [384, 1, 1], \"est. achieved occupancy %%\": 19\n    }\n  },\n", ts/1000+12, ts%1000, g%1000, c+1, c)
	fmt.Fprintf(w, "  {\n    \"ph\": \"f\", \"id\": %d, \"pid\": 0, \"tid\": 7, \"ts\": %d.%03d,\n    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  },\n", c, ts/1000+12, ts%1000)
	if g%50 != 0 {
		return 4
	}
	fmt.Fprintf(w, "  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"record_param_comms\", \"pid\": 2910249, \"tid\": 2919752,\n    \"ts\": %d.%03d, \"dur\": 9.0,\n    \"args\": {\n      \"External id\": %d, \"Collective name\": \"allreduce\", \"dtype\": \"BFloat16\", \"In msg nelems\": 6637568, \"Out msg nelems\": 6637568, \"Group size\": 8, \"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\", \"Process Group Ranks\": \"[0, 1, 2, 3, 4, 5, 6, 7]\", \"Seq\": %d\n    }\n  },\n", ts/1000+30, ts%1000, c+2, g/50)
	fmt.Fprintf(w, "  {\n    \"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernelExC\", \"pid\": 2910249, \"tid\": 2919752,\n    \"ts\": %d.%03d, \"dur\": 4.0,\n    \"args\": {\n      \"External id\": %d, \"cbid\": 430, \"correlation\": %d\n    }\n  },\n", ts/1000+32, ts%1000, c+2, c+500000)
	fmt.Fprintf(w, "  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)\", \"pid\": 0, \"tid\": 40,\n    \"ts\": %d.%03d, \"dur\": 250.0,\n    \"args\": {\n      \"External id\": %d, \"device\": 0, \"stream\": 40, \"correlation\": %d, \"Collective name\": \"allreduce\", \"In msg nelems\": 6637568, \"Out msg nelems\": 6637568, \"Group size\": 8, \"dtype\": \"BFloat16\", \"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\", \"Process Group Ranks\": \"[0, 1, 2, 3, 4, 5, 6, 7]\", \"Seq\": %d\n    }\n  },\n", ts/1000+40, ts%1000, c+2, c+500000, g/50)
	fmt.Fprintf(w, "  {\n    \"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"nccl:all_reduce\", \"pid\": 0, \"tid\": 40,\n    \"ts\": %d.%03d, \"dur\": 250.002,\n    \"args\": {\n      \"External id\": %d\n    }\n  },\n", ts/1000+40, ts%1000, c+3)
	return 8
}

var benchFiles sync.Map // size in MB -> generated path, shared by the benchmarks of one run

func benchTrace(b *testing.B, mb int) (string, int) {
	type gen struct {
		path string
		n    int
	}
	if v, ok := benchFiles.Load(mb); ok {
		g := v.(gen)
		return g.path, g.n
	}
	dir, err := os.MkdirTemp("", "kineto-bench")
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(dir, fmt.Sprintf("rank0_%dmb.json", mb))
	n := genTrace(b, p, mb)
	benchFiles.Store(mb, gen{p, n})
	return p, n
}

// BenchmarkReadKineto reads one generated rank file (one goroutine, so the
// figures are per core) and reports MB/s, events/s and the peak heap, and
// cpu-MB/s: the bytes per second of CPU time the process used (with the
// collector's), which a busy machine disturbs less than MB/s.
func BenchmarkReadKineto(b *testing.B) {
	for _, mb := range []int{100, 220} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			path, n := benchTrace(b, mb)
			st, _ := os.Stat(path)
			b.SetBytes(st.Size())
			peak := watchHeap()
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				tr, err := Read(context.Background(), []string{path}, source.Options{Workers: 1})
				if err != nil || tr.Events.Len() != n {
					b.Fatalf("read %v events (want %d): %v", tr.Events.Len(), n, err)
				}
			}
			b.StopTimer()
			if cpu := cputime.Process() - cpu0; cpu > 0 {
				b.ReportMetric(float64(st.Size())*float64(b.N)/1e6/cpu.Seconds(), "cpu-MB/s")
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
			p := peak()
			b.ReportMetric(float64(p)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(p)/float64(n), "peak-heap-B/event")
		})
	}
	b.Run("big64gz", benchBig64gz)
}

// benchBig64gz reads the 64 gzipped rank files of the generator's 64-rank
// job (samples.Big64(4, 0), as `samples gen --scenario big-64 --layers 4`
// writes them) in one Read with one worker, and reports cpu-MB/s of the
// JSON inside them (what gzip's trailers record), inflating included.
func benchBig64gz(b *testing.B) {
	dir, text := big64Files(b)
	paths, err := filepath.Glob(filepath.Join(dir, "rank-*.pt.trace.json.gz"))
	if err != nil || len(paths) != 64 {
		b.Fatalf("%d rank files: %v", len(paths), err)
	}
	b.SetBytes(text)
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		if _, err := Read(context.Background(), paths, source.Options{Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if cpu := cputime.Process() - cpu0; cpu > 0 {
		b.ReportMetric(float64(text)*float64(b.N)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
}

var big64Dir struct {
	once sync.Once
	dir  string
	text int64
	err  error
}

// big64Files writes the 64-rank job's Kineto files once per run and returns
// their folder and the bytes of JSON they hold.
func big64Files(b *testing.B) (string, int64) {
	big64Dir.once.Do(func() {
		d := &big64Dir
		job, err := samples.Big64(4, 0)
		if err != nil {
			d.err = err
			return
		}
		if d.dir, d.err = os.MkdirTemp("", "kineto-big64"); d.err != nil {
			return
		}
		if d.err = kinetow.WriteDir(d.dir, job); d.err != nil {
			return
		}
		paths, _ := filepath.Glob(filepath.Join(d.dir, "rank-*.pt.trace.json.gz"))
		for _, p := range paths {
			f, err := os.Open(p)
			if err != nil {
				d.err = err
				return
			}
			st, _ := f.Stat()
			d.text += textSize(f, st.Size(), true)
			f.Close()
		}
	})
	if big64Dir.err != nil {
		b.Fatal(big64Dir.err)
	}
	return big64Dir.dir, big64Dir.text
}

// watchHeap samples the heap in use until the returned function is called,
// which gives the peak seen.
func watchHeap() func() uint64 {
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	return func() uint64 { close(done); return peak.Load() }
}

// decodeOnly is a handler that only decodes the elements.
type decodeOnly struct {
	d  evDecoder
	ev rawEvent
	n  int
}

func (h *decodeOnly) decode(b []byte, whole bool) (int, error) {
	h.ev.reset()
	return h.d.decode(b, &h.ev, whole)
}
func (h *decodeOnly) event([]byte, int64, error) error { h.n++; return nil }
func (h *decodeOnly) meta(string, []byte, int64) error { return nil }
func (h *decodeOnly) oversized(string, int64)          {}

// BenchmarkDecodeKineto runs the splitter and the element decoder alone
// over the 100 MB file held in memory: what the one decode pass costs.
func BenchmarkDecodeKineto(b *testing.B) {
	path, _ := benchTrace(b, 100)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		var h decodeOnly
		if err := newSplitter(bytes.NewReader(data)).run(&h); err != nil || h.n == 0 {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if cpu := cputime.Process() - cpu0; cpu > 0 {
		b.ReportMetric(float64(len(data))*float64(b.N)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
}

// BenchmarkDecodeRealTraces decodes the traceEvents of each real Kineto
// trace of ../shared/traces/kineto (PyTorch's own writer: HTA's test
// traces and PARAM's DLRM ranks), inflated in memory first: the decoder's
// learnt runs, strings, args tails and event prefixes must pay on traces
// the generator did not write (docs/performance.md round 43).
func BenchmarkDecodeRealTraces(b *testing.B) {
	dir := shared.Dir(b, filepath.Join("traces", "kineto"))
	paths, _ := filepath.Glob(filepath.Join(dir, "*", "*.json*"))
	if len(paths) == 0 {
		b.Skip("no Kineto traces in ../shared/traces/kineto")
	}
	for _, p := range paths {
		if filepath.Base(filepath.Dir(p)) == "hta_oracle" {
			continue
		}
		data := inflated(b, p)
		b.Run(filepath.Base(filepath.Dir(p))+"/"+strings.SplitN(filepath.Base(p), ".", 2)[0], func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var h decodeOnly
				if err := newSplitter(bytes.NewReader(data)).run(&h); err != nil || h.n == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

// inflated is the text of the trace file at p, gunzipped when it ends in .gz.
func inflated(b *testing.B, p string) []byte {
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	if strings.HasSuffix(p, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			b.Fatal(err)
		}
	}
	return data
}
