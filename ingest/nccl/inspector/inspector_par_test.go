package inspector

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// manyInspectorFiles writes n files of 10 processes (file k is process
// k%10's, so processes recur), each with verbose records of a 10-rank and
// a 2-rank communicator in an order of operations of its own and, in
// every third file, a line that is not a record.
func manyInspectorFiles(t *testing.T, n int) []string {
	t.Helper()
	dir := t.TempDir()
	ops := []string{"AllReduce", "ReduceScatter", "AllGather", "Broadcast"}
	var paths []string
	for k := range n {
		var lines []string
		for j := range ops {
			op, ts := ops[(j+k)%len(ops)], 1000*(k+1)+100*j
			id, rank, nranks := "0xab", k%10, 10
			if j%2 == 1 {
				id, rank, nranks = fmt.Sprintf("0xc%d", k%10/2), k%2, 2
			}
			lines = append(lines, fmt.Sprintf(`{"header":{"id":"%s","rank":%d,"n_ranks":%d,"nnodes":2},"metadata":{"hostname":"h%d","pid":%d},"coll_perf":{"coll":"%s","coll_sn":%d,"coll_msg_size_bytes":4096,"coll_exec_time_us":5,"event_trace_ts":{"kernel_events":[{"kernel_start_ts":%d,"kernel_stop_ts":%d}]}}}`,
				id, rank, nranks, k%2, 100+k%5, op, k, ts, ts+5))
			if k%3 == 0 && j == k%4 {
				lines = append(lines, "not a record")
			}
		}
		p := filepath.Join(dir, fmt.Sprintf("h%d-pid%d-%02d.log", k%2, 100+k%5, k))
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// oneCollector is the trace of paths with every record added to one
// collector in path order, as the loop before files were read on every
// core built it, with the skips after.
func oneCollector(t *testing.T, paths []string) *model.Trace {
	t.Helper()
	var recs []InspectorRecord
	var skips []model.Skip
	for _, p := range paths {
		sk, err := readInspectorFile(p, 0, func(r InspectorRecord) { recs = append(recs, r) })
		if err != nil {
			t.Fatal(err)
		}
		skips = append(skips, sk...)
	}
	tr := inspectorTrace(recs, paths)
	tr.Skipped = append(tr.Skipped, skips...)
	return tr
}

// TestInspectorFilesInOrder: files read on several goroutines give the
// trace one collector gives in path order (ranks, communicators, events,
// skips), and the error of the first bad file in path order.
func TestInspectorFilesInOrder(t *testing.T) {
	paths := manyInspectorFiles(t, 24)
	want := oneCollector(t, paths)
	if want.Events.Len() != 24*4 || len(want.Skipped) != 8 {
		t.Fatalf("fixture: %d events, %d skips; want 96, 8", want.Events.Len(), len(want.Skipped))
	}
	for _, workers := range []int{1, 3, 8} {
		got, err := Format.Read(context.Background(), paths, source.Options{Workers: workers})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("workers %d: err %v, trace differs from one collector's", workers, err)
		}
	}
	bad := append([]string{}, paths[:5]...)
	bad = append(bad, filepath.Join(t.TempDir(), "gone-1.log"))
	bad = append(bad, paths[5:20]...)
	bad = append(bad, filepath.Dir(paths[0])) // a directory: an error once read
	for _, workers := range []int{1, 8} {
		_, err := Format.Read(context.Background(), bad, source.Options{Workers: workers})
		if err == nil || !strings.Contains(err.Error(), "gone-1.log") {
			t.Errorf("workers %d: err %v, want the missing gone-1.log's", workers, err)
		}
	}
}
