package nccl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"

	"github.com/tpptrace/tpptrace/ingest/source"
)

func sniffAll(t *testing.T, path string) []string {
	t.Helper()
	h := head(path)
	var out []string
	for _, f := range Formats {
		if f.Sniff(path, h) {
			out = append(out, f.Name)
		}
	}
	return out
}

func formatNamed(name string) source.Format {
	for _, f := range Formats {
		if f.Name == name {
			return f
		}
	}
	return source.Format{}
}

func TestSniffRealSamples(t *testing.T) {
	dir := filepath.Join(shared.Dir(t), "traces", "nccl")
	cases := map[string]string{
		"Timez-zx_nccl-tests__nccl.log":                                             "nccl-log",
		"pha-Z_nccl__example_profiler_trace_p2p_ring_4rank_nccl2.28.json.txt":       "nccl-profiler",
		"NVIDIA_nvidia-resiliency-ext__fr_traces/gpu_error_1st/_dump_0":             "flight-recorder",
		"NVIDIA_nvidia-resiliency-ext__fr_traces/gpu_error_1st/fault_injection.log": "",
		"Timez-zx_nccl-tests__nccl_topo_dump.xml":                                   "",
	}
	for file, want := range cases {
		p := filepath.Join(dir, file)
		if _, err := os.Stat(p); err != nil {
			t.Skipf("real samples absent: %v", err)
		}
		if got := strings.Join(sniffAll(t, p), ","); got != want {
			t.Errorf("%s sniffed as %q, want %q", file, got, want)
		}
	}
}

func TestReadProfilerSample(t *testing.T) {
	p := filepath.Join(shared.Dir(t), "traces", "nccl", "pha-Z_nccl__example_profiler_trace_p2p_ring_4rank_nccl2.28.json.txt")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Skipf("sample absent: %v", err)
	}
	evs, skips, err := ParseProfiler(strings.NewReader(string(b)))
	if err != nil || len(skips) != 0 {
		t.Fatalf("err %v skips %v", err, skips)
	}
	// Independent count: lines with `"ph": "b"` (every event opens once).
	if want := strings.Count(string(b), `"ph": "b"`); len(evs) != want {
		t.Errorf("%d events, %d begin lines", len(evs), want)
	}
	for _, e := range evs {
		if e.End < 0 {
			t.Errorf("event %s/%d has no end", e.Cat, e.ID)
		}
	}
	tr, err := formatNamed("nccl-profiler").Read(context.Background(), []string{p}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Comms) != 1 || tr.Comms[0].ID != "nccl:b0777fd29824eeb6" || len(tr.Comms[0].Members) != 4 {
		t.Fatalf("comms %+v", tr.Comms)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestRepairLine(t *testing.T) {
	in := `{“name": "Send", "cat": "P2P_API", "ph": "b", "id": 0, "args": {"datatype": ncclFloat32, "GraphCaptured":0, "Stream": 0x4142e90, "ok": true}},`
	want := `{"name": "Send", "cat": "P2P_API", "ph": "b", "id": 0, "args": {"datatype": "ncclFloat32", "GraphCaptured":0, "Stream": "0x4142e90", "ok": true}}`
	if got := repairLine(in); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestInspectorBothContextForms(t *testing.T) {
	lines := strings.Join([]string{
		`{"header":{"id":"0x7F8c496ae9f661","comm_name":"DP Group 0","rank":2,"n_ranks":8,"nnodes":1},"metadata":{"inspector_output_format_version":"v4.0","hostname":"h1","pid":11},"coll_perf":{"coll":"AllReduce","coll_sn":1407,"coll_msg_size_bytes":17179869184,"coll_exec_time_us":61974,"coll_timing_source":"kernel_gpu","coll_busbw_gbs":485.1}}`,
		`{"dump_stats":{},"header":{"id":"0x11","comm_name":"unknown","rank":0,"n_ranks":2,"nnodes":2},"metadata":{"hostname":"h1","pid":11}}`,
		`{"p2p_perf":{"p2p":"Send","p2p_sn":3,"p2p_peer":1,"p2p_msg_size_bytes":8192,"p2p_exec_time_us":12}}`,
		`not json`,
	}, "\n")
	recs, skips, err := ParseInspector(strings.NewReader(lines))
	if err != nil || len(recs) != 2 || len(skips) != 1 || skips[0].Line != 4 {
		t.Fatalf("recs %+v skips %v err %v", recs, skips, err)
	}
	if recs[0].CommID != "0x7f8c496ae9f661" || recs[0].CommName != "DP Group 0" || recs[0].Seq != 1407 {
		t.Errorf("v4.0 record %+v", recs[0])
	}
	if recs[1].CommID != "0x11" || recs[1].CommName != "" || recs[1].Peer != 1 || recs[1].Host != "h1" {
		t.Errorf("marker-context record %+v", recs[1])
	}
}

func TestReadFlightRecorderTrace(t *testing.T) {
	dir := frDir(t, "lock_gil_1st")
	tr, err := formatNamed("flight-recorder").Read(context.Background(), []string{dir}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	descs := map[string]int{}
	for _, c := range tr.Comms {
		descs[c.Desc]++
	}
	// TP=4, PP=2 on 16 ranks: four TP groups, eight PP groups (pg_config).
	if len(tr.Ranks) != 16 || descs["TENSOR_MODEL_PARALLEL_GROUP"] != 4 || descs["PIPELINE_MODEL_PARALLEL_GROUP"] != 8 {
		t.Fatalf("ranks %d, groups per desc %v", len(tr.Ranks), descs)
	}
}
