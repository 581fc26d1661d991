package ingest_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/nvml"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/nsysw"
)

// The generators below write hostile-but-legal inputs: every kept item
// comes with bytes the reader must pass over (ignored arguments, events of
// categories it drops, unmatched begins), within every limit of
// docs/limits.md.

func peakFormats() []peakFormat {
	return []peakFormat{
		{"kineto-json", func(t *testing.T, dir string, n int) []string {
			return writeFile(t, filepath.Join(dir, "rank-0.pt.trace.json"), func(w io.Writer) { kinetoTrace(w, n) })
		}, loadKept},
		{"kineto-json-gz", func(t *testing.T, dir string, n int) []string {
			return writeFile(t, filepath.Join(dir, "rank-0.pt.trace.json.gz"), func(w io.Writer) {
				z, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
				kinetoTrace(z, n)
				z.Close()
			})
		}, loadKept},
		{"nsys-sqlite", writeNsys, loadKept},
		{"nccl-log", lineFile("nccl.node0.log", ncclLogLines), loadKept},
		{"nccl-inspector", lineFile("node0-pid11.log", inspectorLines), loadKept},
		{"nccl-profiler", lineFile("nccl_profile-node0-11.txt", profilerLines), loadKept},
		{"flight-recorder-json", lineFile("rank_0.json", frJSON), loadKept},
		{"flight-recorder-pickle", writeFRPickles, loadKept},
		{"nvml-samples", writeSamples, loadKept},
		{"op-table", writeOpTable, loadOpTable},
		{"dataset", writeDataset, loadKept},
	}
}

func writeFile(t *testing.T, path string, fill func(io.Writer)) []string {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fill(w)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return []string{path}
}

func lineFile(name string, fill func(io.Writer, int)) func(*testing.T, string, int) []string {
	return func(t *testing.T, dir string, n int) []string {
		return writeFile(t, filepath.Join(dir, name), func(w io.Writer) { fill(w, n) })
	}
}

// junk is an ignored argument of 256 bytes.
var junk = strings.Repeat("x", 256)

// kinetoTrace writes n kernels, each with an ignored 256-byte argument
// and followed by a python_function event (dropped) with a 256-byte name.
func kinetoTrace(w io.Writer, n int) {
	long := junk
	fmt.Fprint(w, `{"schemaVersion": 1, "distributedInfo": {"rank": 0, "world_size": 1}, "traceEvents": [`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, `{"ph": "X", "cat": "kernel", "name": "gemm_%d", "pid": 0, "tid": 7, "ts": %d.5, "dur": 1.25, "args": {"device": 0, "stream": 7, "correlation": %d, "junk": "%s"}},`+"\n",
			i%64, 1000+2*i, i, junk)
		fmt.Fprintf(w, `{"ph": "X", "cat": "python_function", "name": "%s%d", "pid": 1, "tid": 1, "ts": %d, "dur": 1},`+"\n", long, i, 1000+2*i)
	}
	fmt.Fprint(w, `{"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "python"}}]}`)
}

// ncclLogLines writes an init and n collective lines, each padded with
// an ignored tail.
func ncclLogLines(w io.Writer, n int) {
	fmt.Fprintln(w, "node0:11:11 [0] NCCL INFO NCCL version 2.21.5+cuda12.4")
	fmt.Fprintln(w, "node0:11:11 [0] NCCL INFO ncclCommInitRank comm 0xa0 rank 0 nranks 2 cudaDev 0 busId 1b000 commId 0x12 - Init START")
	fmt.Fprintln(w, "node0:11:11 [0] NCCL INFO comm 0xa0 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0")
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, "node0:11:11 [0] NCCL INFO AllReduce: opCount %x sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0xa0 [nranks=2] stream 0x3 %s\n", i, junk)
	}
}

// inspectorLines writes n v4.0 collective records with kernel events.
func inspectorLines(w io.Writer, n int) {
	for i := 0; i < n; i++ {
		ts := 1748030377000000 + int64(i)*100
		fmt.Fprintf(w, `{"header":{"id":"0x7f8c496ae9f661","comm_name":"DP Group 0","rank":0,"n_ranks":8,"nnodes":1},"metadata":{"inspector_output_format_version":"v4.0","git_rev":"%s","rec_mechanism":"nccl_profiler_interface","dump_timestamp_us":%d,"hostname":"node0","pid":11},"coll_perf":{"coll":"AllReduce","coll_sn":%d,"coll_msg_size_bytes":8192,"coll_exec_time_us":50,"coll_timing_source":"kernel_gpu","coll_algobw_gbs":1.5,"coll_busbw_gbs":2.5,"event_trace_ts":{"coll_start_ts":%d,"coll_stop_ts":%d,"kernel_events":[{"channel_id":0,"kernel_start_ts":%d,"kernel_stop_ts":%d,"kernel_record_ts":%d}]}}}`+"\n",
			junk, ts+60, i, ts, ts+55, ts+1, ts+51, ts+51)
	}
}

// profilerLines writes n collective begins that never end, each with its
// own id (the reader keeps the communicators only).
func profilerLines(w io.Writer, n int) {
	fmt.Fprintln(w, "[")
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, `{"name": "AllReduce", "cat": "COLL", "ph": "b", "id": %d, "pid": 11, "tid": 1, "ts": %d.5, "args": {"CommHash": 12715772615376301750, "Rank": 0, "Count": 8, "Datatype": "ncclFloat32", "junk": "%s"}},`+"\n", i, i, junk)
	}
	fmt.Fprintln(w, "{}]")
}

func frEntry(i int) map[string]any {
	return map[string]any{"record_id": int64(i), "pg_id": int64(0), "process_group": []any{"0", "default_pg"}, "collective_seq_id": int64(i + 1),
		"p2p_seq_id": int64(0), "op_id": int64(i + 1), "profiling_name": "nccl:all_reduce", "time_created_ns": int64(1e18) + int64(i)*1000,
		"time_discovered_started_ns": int64(1e18) + int64(i)*1000 + 10, "time_discovered_completed_ns": int64(1e18) + int64(i)*1000 + 900,
		"duration_ms": 0.5, "state": "completed", "input_sizes": []any{[]any{int64(1024)}}, "input_dtypes": []any{"Float"},
		"output_sizes": []any{[]any{int64(1024)}}, "output_dtypes": []any{"Float"}, "retired": true, "timeout_ms": int64(600000),
		"frames": []any{map[string]any{"name": junk, "filename": "train.py", "line": int64(i)}}}
}

// frDump is a dump of entries first to first+n-1 of a job of the ranks
// listed (a string, as dumps write them).
func frDump(first, n int, ranks string) map[string]any {
	entries := make([]any, n)
	for i := range entries {
		entries[i] = frEntry(first + i)
	}
	return map[string]any{"version": "2.9", "comm_lib_version": "2.21.5", "entries": entries,
		"pg_config": map[string]any{"0": map[string]any{"name": "0", "desc": "default_pg", "ranks": ranks}},
		"pg_status": map[string]any{"0": map[string]any{"last_enqueued_collective": int64(n), "last_started_collective": int64(n), "last_completed_collective": int64(n)}}}
}

// frJSON writes a dump of n entries as JSON (each with a stack frame).
func frJSON(w io.Writer, n int) {
	d := frDump(0, n, "[0, 1]")
	entries := d["entries"].([]any)
	delete(d, "entries")
	b, _ := jsonMarshal(d)
	w.Write(b[:len(b)-1])
	fmt.Fprint(w, `, "entries": [`)
	for i, e := range entries {
		if i > 0 {
			fmt.Fprint(w, ",\n")
		}
		b, _ := jsonMarshal(e)
		w.Write(b)
	}
	fmt.Fprint(w, "]}")
}

// frPickleEntries is the most entries a generated pickled dump holds
// (some 8 MiB): pickles are decoded whole, so a larger one would be
// refused past ingest/flightrec's cap, where real dumps hold a ring
// buffer of some 2,000 entries.
const frPickleEntries = 10_000

// writeFRPickles writes n entries as the protocol-2 pickled dumps of as
// many ranks as frPickleEntries per dump takes, in a directory.
func writeFRPickles(t *testing.T, dir string, n int) []string {
	k := (n + frPickleEntries - 1) / frPickleEntries
	ranks := make([]string, max(k, 2))
	for r := range ranks {
		ranks[r] = fmt.Sprint(r)
	}
	list := "[" + strings.Join(ranks, ", ") + "]"
	for r := 0; r < k; r++ {
		d := frDump(r*frPickleEntries, min(frPickleEntries, n-r*frPickleEntries), list)
		writeFile(t, filepath.Join(dir, fmt.Sprintf("rank_%d", r)), func(w io.Writer) { w.Write(frPickle(d)) })
	}
	return []string{dir}
}

// frPickle writes a dump as a protocol-2 pickle.
func frPickle(d map[string]any) []byte {
	var b bytes.Buffer
	b.Write([]byte{0x80, 2})
	pickleValue(&b, d)
	b.WriteByte('.')
	return b.Bytes()
}

func pickleValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case map[string]any:
		b.Write([]byte{'}', '('})
		for _, k := range sortedKeys(v) {
			pickleValue(b, k)
			pickleValue(b, v[k])
		}
		b.WriteByte('u')
	case []any:
		b.Write([]byte{']', '('})
		for _, x := range v {
			pickleValue(b, x)
		}
		b.WriteByte('e')
	case string:
		b.WriteByte('X')
		binary.Write(b, binary.LittleEndian, uint32(len(v)))
		b.WriteString(v)
	case int64:
		b.Write([]byte{0x8a, 8}) // LONG1, 8 bytes little-endian
		binary.Write(b, binary.LittleEndian, v)
	case float64:
		b.WriteByte('G')
		binary.Write(b, binary.BigEndian, math.Float64bits(v))
	case bool:
		b.WriteByte(map[bool]byte{true: 0x88, false: 0x89}[v])
	}
}

// kernelTrace is one rank's trace of n kernels on one stream.
func kernelTrace(n int) *model.Trace {
	tr := &model.Trace{}
	tr.AddRank(model.Rank{Rank: 0, Host: "node0", PID: 11, LocalGPU: 0, Coord: model.UnknownCoord, Source: -1, ClockBase: int64(1e18)})
	s := tr.AddStream(model.Stream{Rank: 0, GPU: true, ID: 7, Device: 0, Name: "stream 7"})
	for i := 0; i < n; i++ {
		e := model.NewEvent(0, model.KindCompute, tr.Names.Intern(fmt.Sprintf("gemm_%d", i%64)), int64(i)*2000, 1500)
		e.Stream, e.Corr = s, int64(i)
		tr.AddEvent(e)
	}
	return tr
}

func writeNsys(t *testing.T, dir string, n int) []string {
	paths, err := nsysw.Write(dir, kernelTrace(n), nsysw.Options{NoNVTX: true})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

func writeDataset(t *testing.T, dir string, n int) []string {
	p := filepath.Join(dir, "ds")
	if err := dataset.Write(p, kernelTrace(n), dataset.Manifest{Created: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	return []string{p}
}

// writeSamples writes n rows of 8 GPUs, with long identifying strings.
func writeSamples(t *testing.T, dir string, n int) []string {
	rows := make([]nvml.Row, n)
	for i := range rows {
		rows[i] = nvml.Row{Host: "node-0001.cluster.example", GPUIndex: int32(i % 8), UUID: fmt.Sprintf("GPU-3b2f1a9e-0000-1111-2222-33334444555%d", i%8),
			BusID: "00000000:1B:00.0", Name: "NVIDIA H100 80GB HBM3", TimeNs: int64(1e18) + int64(i/8)*1e8, SMUtil: int32(i % 100), GPMSMUtil: -1, GPMTensorUtil: -1}
	}
	p := filepath.Join(dir, "samples-node0.parquet")
	if err := nvml.WriteFile(p, rows); err != nil {
		t.Fatal(err)
	}
	return []string{p}
}

// opRow has the columns of an op table (ingest/optable).
type opRow struct {
	DP     int32   `parquet:"dp_rank"`
	Stage  int32   `parquet:"stage"`
	Rank   int32   `parquet:"rank"`
	Step   int64   `parquet:"step"`
	OpType string  `parquet:"optype,dict"`
	Start  float32 `parquet:"start_ts"`
	Dur    float32 `parquet:"duration"`
	Seq    int32   `parquet:"seq_id"`
	MC     int32   `parquet:"mc"`
	MB     int32   `parquet:"mb_id"`
	GMC    int32   `parquet:"gmc"`
}

func writeOpTable(t *testing.T, dir string, n int) []string {
	p := filepath.Join(dir, "trace-0.parquet")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[opRow](f)
	ops := []string{"forward-compute", "backward-compute", "forward-send", "backward-recv"}
	for i := 0; i < n; i += 1024 {
		rows := make([]opRow, min(1024, n-i))
		for j := range rows {
			k := i + j
			rows[j] = opRow{Rank: int32(k % 8), Stage: int32(k % 4), Step: int64(k / 4096), OpType: ops[k%4], Start: float32(k%4096) * 0.5, Dur: 0.25, Seq: int32(k), MC: int32(k % 16), MB: int32(k % 16), GMC: int32(k % 64)}
		}
		if _, err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return []string{p}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
