package flightrec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// manyDumps writes timed JSON dumps of ranks 0..n-1 of one process group,
// each rank's collectives started at its own time, with a truncated dump
// after the fifth, and a directory holding the last four dumps, an empty
// file and a pickle that is not a dump; it returns the files and the
// directory, in the order to read them.
func manyDumps(t *testing.T, n int) []string {
	t.Helper()
	dir, sub := t.TempDir(), t.TempDir()
	all := strings.Trim(fmt.Sprint(slices.Collect(func(yield func(int) bool) {
		for r := range n {
			yield(r)
		}
	})), "[]")
	var paths []string
	for r := range n {
		var entries []string
		for i := 1; i <= 3; i++ {
			start := int64(1_000_000_000 + 1_000_000*i + 7_000*((r*5)%n))
			entries = append(entries, fmt.Sprintf(`{"record_id": %d, "pg_id": 0, "process_group": ["0", "default_pg"], "collective_seq_id": %d, "p2p_seq_id": 0, "op_id": %d, "profiling_name": "nccl:all_reduce", "time_created_ns": %d, "time_discovered_started_ns": %d, "duration_ms": 0.%d, "input_sizes": [[1024]], "input_dtypes": ["Float"], "output_sizes": [[1024]], "output_dtypes": ["Float"], "state": "completed", "is_p2p": false}`,
				i, i, i, start-500, start, 1+r%7))
		}
		text := fmt.Sprintf(`{"version": "2.9", "pg_config": {"0": {"name": "0", "desc": "default_pg", "ranks": "[%s]"}}, "entries": [%s]}`, strings.ReplaceAll(all, " ", ", "), strings.Join(entries, ", "))
		p := filepath.Join(dir, fmt.Sprintf("rank_%d.json", r))
		if r >= n-4 {
			p = filepath.Join(sub, fmt.Sprintf("rank_%d.json", r))
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if r < n-4 {
			paths = append(paths, p)
		}
		if r == 4 {
			trunc := filepath.Join(dir, "rank_99.json")
			if err := os.WriteFile(trunc, []byte(text[:len(text)/2]), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, trunc)
		}
	}
	for name, b := range map[string][]byte{"rank_98": nil, "rank_97.pkl": {0x80, 0x04, 'K', 1, '.'}} {
		if err := os.WriteFile(filepath.Join(sub, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return append(paths, sub)
}

// TestDumpsInOrder: dumps read on several goroutines give the trace, the
// skips and the warnings (in order) one goroutine gives, and the error of
// the first path in order that cannot be read.
func TestDumpsInOrder(t *testing.T) {
	paths := manyDumps(t, 24)
	var w1 source.Warnings
	want, err := Format.Read(context.Background(), paths, source.Options{Workers: 1, Warn: w1.Add})
	if err != nil || want.Events.Len() != 72 || len(want.Skipped) != 3 || len(w1.Msgs()) != 3 {
		t.Fatalf("one goroutine: err %v, %d events, %d skips, warnings %q; want 72, 3, 3", err, want.Events.Len(), len(want.Skipped), w1.Msgs())
	}
	for _, workers := range []int{3, 8} {
		var w source.Warnings
		got, err := Format.Read(context.Background(), paths, source.Options{Workers: workers, Warn: w.Add})
		if err != nil || !reflect.DeepEqual(got, want) || !slices.Equal(w.Msgs(), w1.Msgs()) {
			t.Fatalf("workers %d: err %v, warnings %q; trace or warnings differ from one goroutine's (%q)", workers, err, w.Msgs(), w1.Msgs())
		}
	}
	bad := slices.Concat(paths[:9], []string{filepath.Join(t.TempDir(), "gone-1")}, paths[9:], []string{"gone-2"})
	for _, workers := range []int{1, 8} {
		_, err := Format.Read(context.Background(), bad, source.Options{Workers: workers})
		if err == nil || !strings.Contains(err.Error(), "gone-1") || strings.Contains(err.Error(), "gone-2") {
			t.Errorf("workers %d: err %v, want the missing gone-1's", workers, err)
		}
	}
}
