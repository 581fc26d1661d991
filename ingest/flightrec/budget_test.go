package flightrec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// TestMemoryBudgetStopsTheDumps: a budget the live heap already exceeds
// fails the read of the dumps at the first, naming it (not skipping it
// and trying the next, as for an unreadable one); without a budget they
// read.
func TestMemoryBudgetStopsTheDumps(t *testing.T) {
	dir := t.TempDir()
	for r := range 2 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("dump_%d", r)), []byte(frJSON(r, 1_000_000_000, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC() // the live heap is measured as of the last collection
	_, err := Format.Read(context.Background(), []string{dir}, source.Options{MaxMemory: 1})
	if !errors.Is(err, source.ErrMemoryBudget) || !strings.Contains(err.Error(), filepath.Join(dir, "dump_0")+": ") {
		t.Fatalf("err %v, want the memory budget naming dump_0", err)
	}
	if _, _, err := ReadDumpsSkipping([]string{dir}, 1); !errors.Is(err, source.ErrMemoryBudget) || strings.Contains(err.Error(), "dump_1") {
		t.Fatalf("skipping reader: err %v, want the memory budget at dump_0, the read stopped there", err)
	}
	if tr, err := Format.Read(context.Background(), []string{dir}, source.Options{}); err != nil || len(tr.Ranks) != 2 {
		t.Fatalf("without a budget: err %v", err)
	}
}

// TestMemoryBudgetIsCheckedAmongEntries: converting a dump's entries
// checks the budget every memEvery entries and names the entry.
func TestMemoryBudgetIsCheckedAmongEntries(t *testing.T) {
	defer func(n int) { memEvery = n }(memEvery)
	memEvery = 2
	v, err := decodeDump([]byte(frJSON(0, 1_000_000_000, 1)))
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	if _, err := dumpFrom(v, 1); !errors.Is(err, source.ErrMemoryBudget) || !strings.HasPrefix(err.Error(), "entry 1: ") {
		t.Fatalf("err %v, want the memory budget at entry 1", err)
	}
	if d, err := dumpFrom(v, 0); err != nil || len(d.Entries) != 2 {
		t.Fatalf("without a budget: err %v", err)
	}
}
