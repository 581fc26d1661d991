package kinetow

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/samples"
)

// TestWriteDirProgress checks that the parallel writer reports every rank
// file once, counting up to the total, and writes each file as the
// one-rank writer does.
func TestWriteDirProgress(t *testing.T) {
	job, err := samples.Simulate(samples.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var seen []int
	if err := WriteDirProgress(dir, job, func(done, total int) {
		if total != len(job.Trace.Ranks) {
			t.Errorf("total %d, want %d", total, len(job.Trace.Ranks))
		}
		seen = append(seen, done)
	}); err != nil {
		t.Fatal(err)
	}
	for i, d := range seen {
		if d != i+1 {
			t.Fatalf("progress %v, want 1..%d in order", seen, len(job.Trace.Ranks))
		}
	}
	if len(seen) != len(job.Trace.Ranks) {
		t.Fatalf("%d progress calls, want %d", len(seen), len(job.Trace.Ranks))
	}
	one := filepath.Join(t.TempDir(), "r5.json.gz")
	if err := writeFile(one, func(w *bufio.Writer) error { return WriteRank(w, job, 5) }); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(one)
	b, _ := os.ReadFile(filepath.Join(dir, FileName(5)))
	if !bytes.Equal(a, b) {
		t.Fatal("rank 5's file differs from the one-rank writer's")
	}
}
