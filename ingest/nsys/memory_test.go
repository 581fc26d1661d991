package nsys

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/shared"
)

// allocSamples returns rank r's allocated-memory samples.
func allocSamples(tr *model.Trace, r int32) []model.Counter {
	id, ok := tr.Names.Lookup(model.CounterMemAllocated)
	var out []model.Counter
	for i := 0; ok && i < tr.Counters.Len(); i++ {
		if c := tr.Counters.At(i); c.Rank == r && c.Name == id {
			out = append(out, c)
		}
	}
	return out
}

// TestRealExportMemory: the real export was captured without
// --cuda-memory-usage (no table): no counters, as SQL says.
func TestRealExportMemory(t *testing.T) {
	path := shared.Dir(t, "traces", "nsys", "NVIDIA-Fuser_report1.sqlite")
	tr, err := Read(context.Background(), []string{path}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := sqlCount(t, path, `SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name='`+memTable+`'`)
	if want > 0 {
		want = sqlCount(t, path, `SELECT COUNT(*) FROM `+memTable+` WHERE memKind IN (2, 5)`)
	}
	if got := tr.Counters.Len(); got != want {
		t.Fatalf("%d counter samples, SQL counts %d device memory rows", got, want)
	}
	if sqlCount(t, path, `SELECT COUNT(*) FROM META_DATA_CAPTURE WHERE name LIKE '%COLLECT_GPU_MEMORY_USAGE' AND value='false'`) != 1 {
		t.Fatal("fixture changed: memory usage collection is no longer off")
	}
}

// memSchema is CUDA_GPU_MEMORY_USAGE_EVENTS with every column of the
// schema reference (streamId as in later versions).
const memSchema = `CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER NOT NULL,
	deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL,
	bytes INTEGER NOT NULL, memKind INTEGER NOT NULL, memoryOperationType INTEGER NOT NULL, name TEXT,
	correlationId INTEGER, streamId INTEGER, localMemoryPoolAddress INTEGER, localMemoryPoolReleaseThreshold INTEGER,
	localMemoryPoolSize INTEGER, localMemoryPoolUtilizedSize INTEGER, importedMemoryPoolAddress INTEGER,
	importedMemoryPoolProcessId INTEGER)`

// memRows: (start, device, address, bytes, memKind, op) of rank 0 (pid
// 4000, GPU 0). wantLevels is worked out by hand: the pinned host row, the
// device-1 row and the free of 0x999 (allocated before the capture) are
// left out; the free of 0x200 has bytes 0 and takes the allocation's size;
// device-static memory counts.
var memRows = [][6]int64{
	{2_000, 0, 0x100, 100, 2, 0},
	{1_000, 0, 0x200, 200, 2, 0}, // out of order: rows are sorted by time
	{3_000, 0, 0x300, 1000, 2, 0},
	{3_500, 0, 0x400, 5000, 1, 0}, // pinned host memory
	{3_600, 1, 0x500, 7000, 2, 0}, // another GPU
	{4_000, 0, 0x200, 0, 2, 1},
	{4_500, 0, 0x999, 50, 2, 1}, // allocated before the capture
	{5_000, 0, 0x600, 64, 5, 0}, // device static
	{6_000, 0, 0x300, 1000, 2, 1},
}

var wantLevels = []model.Counter{{Time: 1_000, Value: 200}, {Time: 2_000, Value: 300}, {Time: 3_000, Value: 1300},
	{Time: 4_000, Value: 1100}, {Time: 5_000, Value: 1164}, {Time: 6_000, Value: 164}}

// TestHandMadeMemoryTable adds the table to a written export and checks
// the levels, the count against SQL and the skip records.
func TestHandMadeMemoryTable(t *testing.T) {
	paths, err := nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(filepath.Dir(paths[0]), "report_rank0.sqlite")
	addMemRows(t, p, 1<<48|4000<<24)
	tr, err := Read(context.Background(), []string{p}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	got := allocSamples(tr, 0)
	mapped := sqlCount(t, p, `SELECT COUNT(*) FROM `+memTable+` m WHERE memKind IN (2, 5) AND deviceId = 0 AND
		NOT (memoryOperationType = 1 AND NOT EXISTS (SELECT 1 FROM `+memTable+` a WHERE a.memoryOperationType = 0 AND a.address = m.address))`)
	if len(got) != mapped || mapped != len(wantLevels) {
		t.Fatalf("%d samples, SQL maps %d rows, want %d", len(got), mapped, len(wantLevels))
	}
	for i, w := range wantLevels {
		if got[i].Time != w.Time || got[i].Value != w.Value {
			t.Errorf("sample %d: %d B at %d, want %d B at %d", i, got[i].Value, got[i].Time, w.Value, w.Time)
		}
	}
	checkMemSkips(t, tr)
}

func checkMemSkips(t *testing.T, tr *model.Trace) {
	t.Helper()
	want := map[string]int64{"gpu memory event on another device than the rank's gpu": 1, "gpu memory free of an allocation made before the capture": 1}
	for _, s := range tr.Skipped {
		if n, ok := want[s.Reason]; ok && s.Count == n {
			delete(want, s.Reason)
		}
	}
	if len(want) > 0 {
		t.Errorf("skip records missing: %v (have %+v)", want, tr.Skipped)
	}
}

func addMemRows(t *testing.T, path string, gpid int64) {
	t.Helper()
	conn, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Exec(memSchema); err != nil {
		t.Fatal(err)
	}
	st, _, err := conn.Prepare(`INSERT INTO ` + memTable + ` (start, globalPid, deviceId, contextId, address, pc, bytes, memKind, memoryOperationType) VALUES (?, ?, ?, 1, ?, 0, ?, ?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, r := range memRows {
		st.BindInt64(1, r[0])
		st.BindInt64(2, gpid)
		for i, v := range r[1:] {
			st.BindInt64(3+i, v)
		}
		if err := st.Exec(); err != nil {
			t.Fatal(err)
		}
	}
}
