package profiler

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// manyTraces writes n processes' traces (8 a host), each with a
// collective begun on the world communicator and on its host's, and in
// every third trace a line that is not JSON.
func manyTraces(t testing.TB, n int) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for r := range n {
		host, pid := fmt.Sprintf("node%03d", r/8), 2910000+131*r
		lines := []string{"["}
		for i, comm := range []int{1234567, 1000 + r/8} {
			lines = append(lines, fmt.Sprintf(`{"name": "AllReduce", "cat": "COLL", "ph": "b", "id": %d, "pid": %d, "tid": 1, "ts": 1.5, "args": {"CommHash": %d, "Rank": %d, "Count": 8, "Datatype": "ncclFloat32"}},`,
				i+1, pid, comm, []int{r, r % 8}[i]))
			if r%3 == 0 && i == 0 {
				lines = append(lines, "not json,")
			}
		}
		p := filepath.Join(dir, fmt.Sprintf("nccl_profile-%s-%d.txt", host, pid))
		if err := os.WriteFile(p, []byte(strings.Join(append(lines, "{}]"), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// tracesOneByOne is the trace of the loop that read the traces one after
// another.
func tracesOneByOne(t *testing.T, paths []string) *model.Trace {
	t.Helper()
	var views []nccl.CommView
	var skips []model.Skip
	for _, p := range paths {
		vs, sk, err := readViews(p, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sk {
			skips = append(skips, model.Skip{Source: p, Offset: s.Line, Unit: "line", Reason: s.Reason, Count: 1})
		}
		views = append(views, vs...)
	}
	tr := nccl.ViewsTrace(views, "nccl-profiler", paths)
	tr.Skipped = append(tr.Skipped, skips...)
	return tr
}

// TestTracesInOrder: traces read on several goroutines give the trace and
// skips of the loop one after another, and the error of the first bad
// trace in path order.
func TestTracesInOrder(t *testing.T) {
	paths := manyTraces(t, 24)
	want := tracesOneByOne(t, paths)
	if len(want.Ranks) != 24 || len(want.Comms) != 4 || len(want.Skipped) != 8 {
		t.Fatalf("fixture: %d ranks, %d comms, %d skips; want 24, 4, 8", len(want.Ranks), len(want.Comms), len(want.Skipped))
	}
	for _, workers := range []int{1, 3, 8} {
		got, err := Format.Read(context.Background(), paths, source.Options{Workers: workers})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("workers %d: err %v, trace differs from one by one's", workers, err)
		}
	}
	bad := slices.Concat(paths[:9], []string{filepath.Join(t.TempDir(), "gone-1.txt")}, paths[9:], []string{"gone-2.txt"})
	for _, workers := range []int{1, 8} {
		_, err := Format.Read(context.Background(), bad, source.Options{Workers: workers})
		if err == nil || !strings.Contains(err.Error(), "gone-1.txt") {
			t.Errorf("workers %d: err %v, want the missing gone-1.txt's", workers, err)
		}
	}
}

// BenchmarkReadTraces reads 512 small traces (two collectives each) on one
// goroutine and on GOMAXPROCS (source.InOrder).
func BenchmarkReadTraces(b *testing.B) {
	paths := manyTraces(b, 512)
	for _, w := range []struct {
		name    string
		workers int
	}{{"one", 1}, {"all", 0}} {
		b.Run(w.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Format.Read(context.Background(), paths, source.Options{Workers: w.workers}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
