package nsys

import (
	"context"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"

	"github.com/ncruces/go-sqlite3"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// sqlCount runs an independent COUNT(*) query against an export.
func sqlCount(t *testing.T, path, query string) int {
	t.Helper()
	conn, err := sqlite3.OpenFlags("file:"+path+"?mode=ro&immutable=1", sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	st, _, err := conn.Prepare(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer st.Close()
	if !st.Step() {
		t.Fatalf("%s: no row: %v", query, st.Err())
	}
	return st.ColumnInt(0)
}

const gpuPIDs = `(SELECT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL UNION SELECT globalPid FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION SELECT globalPid FROM CUPTI_ACTIVITY_KIND_MEMSET)`

func TestRealExportCounts(t *testing.T) {
	path := shared.Dir(t, "traces", "nsys", "NVIDIA-Fuser_report1.sqlite")
	tr, err := Read(context.Background(), []string{path}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatalf("invalid trace: %v", err)
	}
	got := tr.CountByKind()
	want := map[model.Kind]int{
		model.KindCompute:    sqlCount(t, path, `SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE globalPid IN `+gpuPIDs),
		model.KindMemcpy:     sqlCount(t, path, `SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY`),
		model.KindMemset:     sqlCount(t, path, `SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET`),
		model.KindRuntime:    sqlCount(t, path, `SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE (globalTid & ~16777215) IN `+gpuPIDs),
		model.KindAnnotation: sqlCount(t, path, `SELECT COUNT(*) FROM NVTX_EVENTS WHERE eventType IN (34,59,60) AND text NOT LIKE 'aten::%' AND (globalTid & ~16777215) IN `+gpuPIDs),
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s events: got %d, want %d (SQL)", k, got[k], n)
		}
	}
	if want[model.KindCompute] != 18 || want[model.KindAnnotation] < 13000 {
		t.Fatalf("fixture changed? kernels %d, annotations %d", want[model.KindCompute], want[model.KindAnnotation])
	}
	checkRealIdentity(t, tr)
}

func checkRealIdentity(t *testing.T, tr *model.Trace) {
	t.Helper()
	if len(tr.Ranks) != 1 {
		t.Fatalf("ranks: %+v", tr.Ranks)
	}
	r := tr.Ranks[0]
	if r.Host != "ipp2-0047.nvidia.com" || r.GPUName != "NVIDIA H200" || r.PID != 50556 || r.BusID != "0000:45:00.0" {
		t.Errorf("rank identity: %+v", r)
	}
	if first := tr.Events.Start[0]; r.ClockBase != 1741793819042497997 || first < 0 || first > 20e9 {
		t.Errorf("times not relative to the session start: base %d, first start %d", r.ClockBase, first)
	}
	if v := tr.Sources[0].Version; !strings.Contains(v, "2025.1.1.110") || !strings.Contains(v, "3.17.1") {
		t.Errorf("version %q", v)
	}
}
