package profiler

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples/shared"
)

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
	tr, err := Format.Read(context.Background(), []string{p}, source.Options{})
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

func TestOverlongLinesInProfilerFiles(t *testing.T) {
	long := strings.Repeat("{", nccl.MaxLine+5) + "\n"
	_, skips, err := ParseProfiler(strings.NewReader(long + long))
	if err != nil || len(skips) != 2 || skips[1].Line != 2 {
		t.Fatalf("profiler: skips %+v, err %v", skips, err)
	}
}

func TestParseViewsMatchesEvents(t *testing.T) {
	in := `[
{"name": "AllReduce", "cat": "COLL", "ph": "b", "id": 1, "pid": 11, "ts": 1.5, "args": {"CommHash": 12715772615376301750, "Rank": 1}},
{"name": "AllReduce", "cat": "COLL", "ph": "e", "id": 1, "pid": 11, "ts": 2.5, "args": {"CommHash": 1, "Rank": 5}},
{"name": "Send", "cat": "P2P", "ph": "b", "id": 2, "pid": 12, "ts": 3, "args": {"CommHash": "0x10", "Rank": 0}},
{"name": "Send", "cat": "P2P", "ph": "b", "id": 3, "pid": 12, "ts": 4, "args": {"CommHash": "0x10", "Rank": 0}},
{"name": "KernelCh", "cat": "GPU", "ph": "b", "id": 4, "pid": 12, "ts": 4, "args": {"CommHash": 7, "Rank": 0}},
{"name": 5, "cat": "COLL", "ph": "b"},
{}]`
	evs, skips, err := ParseProfiler(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	views, vskips, err := parseViews(strings.NewReader(in), "h", 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := profViews(evs, "h"); len(views) != 2 || !reflect.DeepEqual(views, want) {
		t.Errorf("views %+v, want %+v (2)", views, want)
	}
	if len(skips) != 1 || !reflect.DeepEqual(vskips, skips) {
		t.Errorf("skips %+v, want %+v (1)", vskips, skips)
	}
}
