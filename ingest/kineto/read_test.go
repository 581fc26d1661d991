package kineto

import (
	"context"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

func readOne(t *testing.T, path string) *model.Trace {
	t.Helper()
	tr, err := Read(context.Background(), []string{path}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatalf("invalid trace: %v", err)
	}
	return tr
}

func findEvent(t *testing.T, tr *model.Trace, name string) model.Event {
	t.Helper()
	for i := 0; i < tr.Events.Len(); i++ {
		if tr.Name(i) == name {
			return tr.Events.At(i)
		}
	}
	t.Fatalf("no event %q", name)
	return model.Event{}
}

func TestMiniTrace(t *testing.T) {
	tr := readOne(t, writeTrace(t, t.TempDir(), "trace.json.gz", miniTrace))
	r := tr.Ranks[0]
	if len(tr.Ranks) != 1 || r.Rank != 1 || r.Host != "node7" || r.GPUName != "NVIDIA H100" || r.LocalGPU != 1 || r.PID != 10 {
		t.Fatalf("rank record %+v", tr.Ranks)
	}
	if r.ClockBase != 1711964646000000000 {
		t.Errorf("ClockBase = %d", r.ClockBase)
	}
	gemm := findEvent(t, tr, "sm90_gemm")
	if gemm.Kind != model.KindCompute || gemm.Start != 1150250 || gemm.Dur != 20125 || gemm.Iter != 5 || gemm.Corr != 77 {
		t.Errorf("gemm = %+v", gemm)
	}
	if s := tr.Streams[gemm.Stream]; !s.GPU || s.ID != 7 || s.Device != 1 || s.Name != "stream 7" {
		t.Errorf("gemm stream = %+v", s)
	}
	nccl := findEvent(t, tr, "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)")
	if nccl.Kind != model.KindComm || nccl.Coll < 0 || nccl.Iter != 5 {
		t.Fatalf("nccl kernel = %+v", nccl)
	}
	c := tr.Colls.At(int(nccl.Coll))
	if c.Op != model.OpSend || c.Bytes != 2048 || c.Peer != 0 || c.Seq != 9 || c.GroupSize != 2 || tr.Names.Get(c.DType) != "BFloat16" {
		t.Errorf("collective = %+v", c)
	}
	comm := tr.Comms[c.Comm]
	if comm.ID != "3" || comm.Axis != model.AxisPP || comm.AxisBy != model.AxisByDescription {
		t.Errorf("communicator = %+v", comm)
	}
	if ann := findEvent(t, tr, "nccl:send 1->0"); ann.Iter != 5 {
		t.Errorf("annotation iteration = %d", ann.Iter)
	}
}

// TestMiniTraceSkipsByCategory: a category tpptrace does not use is
// recorded with its count; Kineto's own flow arrows (ac2g) are not input
// the user gave and leave no record.
func TestMiniTraceSkipsByCategory(t *testing.T) {
	tr := readOne(t, writeTrace(t, t.TempDir(), "trace.json", miniTrace))
	want := map[string]int64{`category "python_function" is not used`: 1}
	for _, s := range tr.Skipped {
		if strings.Contains(s.Reason, "ac2g") {
			t.Errorf("Kineto's own flow events recorded as skipped: %+v", s)
		}
		if n, ok := want[s.Reason]; ok {
			if s.Count != n {
				t.Errorf("%s: count %d, want %d", s.Reason, s.Count, n)
			}
			delete(want, s.Reason)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing skip records %v in %+v", want, tr.Skipped)
	}
	if n := tr.Events.Len(); n != 9 {
		t.Errorf("%d events kept, want 9", n)
	}
}

// TestExactNanoseconds checks that epoch-µs and relative times with three
// decimals come back to the exact nanosecond.
func TestExactNanoseconds(t *testing.T) {
	doc := `{"traceEvents": [
	 {"ph": "X", "cat": "cpu_op", "name": "epoch", "pid": 1, "tid": 1, "ts": 1711964646000000.123, "dur": 0.001},
	 {"ph": "X", "cat": "cpu_op", "name": "late", "pid": 1, "tid": 1, "ts": 2000000000000001.999, "dur": 1e-3},
	 {"ph": "X", "cat": "cpu_op", "name": "rel", "pid": 1, "tid": 1, "ts": 4458676524595.135, "dur": 92.804}
	], "baseTimeNanoseconds": 1711964646000000000}`
	tr := readOne(t, writeTrace(t, t.TempDir(), "rank0.json", doc))
	for name, want := range map[string][2]int64{
		"epoch": {1711964646000000123, 1}, "late": {2000000000000001999, 1}, "rel": {4458676524595135, 92804},
	} {
		if e := findEvent(t, tr, name); e.Start != want[0] || e.Dur != want[1] {
			t.Errorf("%s: start %d dur %d, want %d %d", name, e.Start, e.Dur, want[0], want[1])
		}
	}
	if tr.Ranks[0].ClockBase+findEvent(t, tr, "rel").Start != 1711964646000000000+4458676524595135 {
		t.Error("absolute time of a relative event is wrong")
	}
}

// TestSubNanosecondRounding checks HTA-style rounding of float traces.
func TestSubNanosecondRounding(t *testing.T) {
	doc := `{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "f", "pid": 1, "tid": 1, "ts": 1712195495505543.2000001, "dur": 1.0004}]}`
	tr := readOne(t, writeTrace(t, t.TempDir(), "rank0.json", doc))
	e := findEvent(t, tr, "f")
	// start rounds up to ...543201; end = floor(...543200.0000001 + 1000.4) = ...544200
	if e.Start != 1712195495505543201 || e.Dur != 999 {
		t.Errorf("start %d dur %d", e.Start, e.Dur)
	}
	found := false
	for _, s := range tr.Skipped {
		found = found || strings.Contains(s.Reason, "sub-nanosecond")
	}
	if !found {
		t.Error("rounding not recorded")
	}
}

func TestParseMicros(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "1": 1000, "1.5": 1500, "0.001": 1, "12.3456": 12345, "1e3": 1000000,
		"1.5e-3": 1, "-2.5": -2500, "00012": 12000, "1711964646000000.123": 1711964646000000123} {
		got, _, err := parseMicros([]byte(in))
		if err != nil || got != want {
			t.Errorf("parseMicros(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-", "1.2.3", "abc", "1e", "99999999999999999999", "1e99"} {
		if _, _, err := parseMicros([]byte(bad)); err == nil {
			t.Errorf("parseMicros(%q) gave no error", bad)
		}
	}
}

// TestKinetosOwnTraceSpanIsNotSkipped: the profiler's "Trace" span is
// dropped without a skip record; an unknown category still gets one.
func TestKinetosOwnTraceSpanIsNotSkipped(t *testing.T) {
	doc := `{"traceEvents": [
	{"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 1, "dur": 500},
	{"ph": "X", "cat": "mystery", "name": "m", "pid": 1, "tid": 1, "ts": 2, "dur": 3},
	{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 30, "dur": 10, "args": {"stream": 7}}]}`
	tr := readOne(t, writeTrace(t, t.TempDir(), "trace.json", doc))
	if len(tr.Skipped) != 1 || !strings.Contains(tr.Skipped[0].Reason, `"mystery"`) {
		t.Errorf("skipped %+v, want only the mystery category", tr.Skipped)
	}
}
