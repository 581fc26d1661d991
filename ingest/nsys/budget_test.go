package nsys

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples/nsysw"
)

// TestMemoryBudgetStopsTheRead: a budget the live heap already exceeds
// stops the read of an export in its rows (checked every memEvery rows)
// with an error that names the file; without a budget the same files read.
func TestMemoryBudgetStopsTheRead(t *testing.T) {
	paths, err := nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { memEvery = n }(memEvery)
	memEvery = 1
	runtime.GC() // the live heap is measured as of the last collection
	_, err = Read(context.Background(), paths, source.Options{MaxMemory: 1})
	if !errors.Is(err, source.ErrMemoryBudget) || !strings.Contains(err.Error(), ".sqlite") {
		t.Fatalf("err %v, want the memory budget naming an export", err)
	}
	if _, err := Read(context.Background(), paths, source.Options{}); err != nil {
		t.Fatalf("without a budget: %v", err)
	}
}
