package kineto

import (
	"context"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// memTrace has GPU and host [memory] instants as profile_memory=True writes
// them, plus an unrelated instant.
const memTrace = `{"distributedInfo": {"rank": 2}, "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1, "dur": 50},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 30.5,
   "args": {"Total Reserved": 4194304, "Total Allocated": 3072, "Bytes": 2048, "Addr": 139874, "Device Type": 1, "Device Id": 0}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 10,
   "args": {"Total Reserved": 2097152, "Total Allocated": 1024, "Bytes": 1024, "Addr": 139872, "Device Type": 1, "Device Id": 0}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 20,
   "args": {"Total Reserved": 0, "Total Allocated": 512, "Bytes": 512, "Addr": 7, "Device Type": 0, "Device Id": -1}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 40,
   "args": {"Total Reserved": 4194304, "Total Allocated": 1024, "Bytes": -2048, "Addr": 139874, "Device Type": 1, "Device Id": 0}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "Iteration Start: PyTorch Profiler", "pid": 1, "tid": 1, "ts": 1}
]}`

func TestMemoryInstantsBecomeCounters(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "rank2.json", memTrace)
	tr, err := Read(context.Background(), []string{p}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	alloc, _ := tr.Names.Lookup(model.CounterMemAllocated)
	var times, vals []int64
	for i := 0; i < tr.Counters.Len(); i++ {
		c := tr.Counters.At(i)
		if c.Rank != 2 {
			t.Errorf("counter %d on rank %d, want 2", i, c.Rank)
		}
		if c.Name == alloc {
			times, vals = append(times, c.Time), append(vals, c.Value)
		}
	}
	wantT, wantV := []int64{10000, 30500, 40000}, []int64{1024, 3072, 1024}
	if !equal(times, wantT) || !equal(vals, wantV) {
		t.Fatalf("allocated samples = %v @ %v, want %v @ %v", vals, times, wantV, wantT)
	}
	if tr.Counters.Len() != 6 {
		t.Errorf("%d counter samples, want 3 allocated + 3 reserved", tr.Counters.Len())
	}
	if peak, ok := tr.CounterPeak(2, model.CounterMemReserved, 0, 1e9); !ok || peak != 4194304 {
		t.Errorf("reserved peak = %d, %v", peak, ok)
	}
	if !hasSkip(tr, "host memory") {
		t.Errorf("host [memory] event not recorded as skipped: %+v", tr.Skipped)
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func hasSkip(tr *model.Trace, sub string) bool {
	for _, s := range tr.Skipped {
		if strings.Contains(s.Reason, sub) {
			return true
		}
	}
	return false
}

// independentMemCount counts GPU [memory] instants with encoding/json.
func independentMemCount(t *testing.T, path string) int {
	var doc struct {
		TraceEvents []struct {
			Ph, Name string
			Args     map[string]any
		} `json:"traceEvents"`
	}
	decodeJSON(t, path, &doc)
	n := 0
	for _, e := range doc.TraceEvents {
		if dev, ok := e.Args["Device Id"].(float64); e.Ph == "i" && e.Name == "[memory]" && ok && dev >= 0 {
			n++
		}
	}
	return n
}

func TestSharedTracesMemoryCounters(t *testing.T) {
	for name, files := range traceSets(t) {
		t.Run(name, func(t *testing.T) {
			tr, err := Read(context.Background(), files, source.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for _, f := range files {
				want += independentMemCount(t, f)
			}
			alloc, _ := tr.Names.Lookup(model.CounterMemAllocated)
			got := 0
			for _, n := range tr.Counters.Name {
				if n == alloc && tr.Counters.Len() > 0 {
					got++
				}
			}
			if got != want {
				t.Errorf("%d allocated-memory samples, independent count %d", got, want)
			}
		})
	}
}
