package ncclog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// TestMemoryBudgetStopsTheLog: a budget the live heap already exceeds
// stops the read of a log in its lines (checked every 4,096) with an
// error naming the file and the line; without a budget it reads.
func TestMemoryBudgetStopsTheLog(t *testing.T) {
	p := filepath.Join(t.TempDir(), "rank0.log")
	text := initLine + strings.Repeat("h:1:1 [0] NCCL INFO Channel 00/02 : 0 1\n", 5000)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	runtime.GC() // the live heap is measured as of the last collection
	_, err := Format.Read(context.Background(), []string{p}, source.Options{MaxMemory: 1})
	if !errors.Is(err, source.ErrMemoryBudget) || !strings.Contains(err.Error(), p+": line 4096: ") {
		t.Fatalf("err %v, want the memory budget naming %s at line 4096", err, p)
	}
	tr, err := Format.Read(context.Background(), []string{p}, source.Options{})
	if err != nil || len(tr.Ranks) != 1 {
		t.Fatalf("without a budget: err %v, %d ranks", err, len(tr.Ranks))
	}
}
