package hang

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/flightrec"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/shared"
)

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDumpFromAnotherJobIsNamed(t *testing.T) {
	good, other := shared.FRDumps(t, "lock_gil_1st"), shared.FRDumps(t, "gpu_error_1st")
	dir := t.TempDir()
	paths, _ := filepath.Glob(filepath.Join(good, "_dump_*"))
	for _, p := range paths {
		copyFile(t, p, filepath.Join(dir, filepath.Base(p)))
	}
	copyFile(t, filepath.Join(other, "_dump_3"), filepath.Join(dir, "_dump_3"))
	dumps, err := flightrec.ReadDumps([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Diagnose(dumps)
	var je *model.FRJobError
	if !errors.As(err, &je) || !strings.HasSuffix(je.Path, "_dump_3") {
		t.Fatalf("want an FRJobError naming _dump_3, got %v", err)
	}
}

// jsonDump writes a JSON-variant dump for rank r.
func jsonDump(t *testing.T, dir string, r int, groups map[string][]int, status map[string][3]int, entries []map[string]any) string {
	t.Helper()
	cfg := map[string]any{}
	for name, ranks := range groups {
		cfg[name] = map[string]any{"name": name, "desc": "TENSOR_MODEL_PARALLEL_GROUP", "ranks": fmt.Sprint(ranks)}
	}
	st := map[string]any{}
	for id, s := range status {
		st[id] = map[string]any{"last_enqueued_collective": fmt.Sprint(s[0]), "last_started_collective": fmt.Sprint(s[1]), "last_completed_collective": fmt.Sprint(s[2])}
	}
	b, _ := json.Marshal(map[string]any{"version": "2.10", "comm_lib_version": "2.27.3", "pg_config": cfg, "pg_status": st, "entries": entries})
	p := filepath.Join(dir, fmt.Sprintf("nccl_trace_rank_%d.json", r))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func entry(rec, seq int, name string, size []int, dtype, state string) map[string]any {
	return map[string]any{"record_id": rec, "pg_id": 1, "process_group": []any{"5", "TENSOR_MODEL_PARALLEL_GROUP"},
		"collective_seq_id": seq, "p2p_seq_id": 0, "op_id": seq, "profiling_name": name, "time_created_ns": 1000 + rec,
		"input_sizes": [][]int{size}, "output_sizes": [][]int{size}, "input_dtypes": []string{dtype},
		"output_dtypes": []string{dtype}, "state": state, "is_p2p": false}
}

func TestDesyncMismatchIsAttributed(t *testing.T) {
	dir := t.TempDir()
	g := map[string][]int{"5": {0, 1, 2}}
	for r := 0; r < 3; r++ {
		dtype := "BFloat16"
		if r == 2 {
			dtype = "Float" // rank 2 reduces fp32 where its peers send bf16
		}
		jsonDump(t, dir, r, g, map[string][3]int{"1": {8, -1, 6}}, []map[string]any{
			entry(10, 7, "nccl:all_reduce", []int{1024}, dtype, "scheduled"),
			entry(11, 8, "nccl:all_reduce", []int{1024}, "BFloat16", "scheduled"),
		})
	}
	dumps, err := flightrec.ReadDumps([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Diagnose(dumps)
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Culprit
	if c == nil || c.Kind != KindMismatch || c.Seq != 7 || fmt.Sprint(c.Ranks) != "[2]" {
		t.Fatalf("culprit = %+v, want a mismatch of rank 2 at #7", c)
	}
}

func TestAgreeingDumpsHaveNoCulprit(t *testing.T) {
	dir := t.TempDir()
	g := map[string][]int{"5": {0, 1}}
	for r := 0; r < 2; r++ {
		jsonDump(t, dir, r, g, map[string][3]int{"1": {7, -1, 6}}, []map[string]any{
			entry(10, 7, "nccl:all_reduce", []int{1024}, "BFloat16", "scheduled")})
	}
	dumps, _ := flightrec.ReadDumps([]string{dir})
	rep, err := Diagnose(dumps)
	if err != nil || rep.Culprit != nil || len(rep.Findings) != 0 {
		t.Fatalf("agreeing ranks: culprit %+v, findings %v, err %v", rep.Culprit, rep.Findings, err)
	}
}
