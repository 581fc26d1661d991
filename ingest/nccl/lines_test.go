package nccl

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// TestEachLineChecksTheMemoryBudget: past the budget, reading stops at the
// first check (line memEvery) with ErrMemoryBudget; without one every line
// is read.
func TestEachLineChecksTheMemoryBudget(t *testing.T) {
	text := strings.Repeat("a line\n", memEvery+10)
	runtime.GC() // the live heap is measured as of the last collection
	n := 0
	err := EachLine(strings.NewReader(text), 1, func(int64, string) { n++ }, func(int64) {})
	if !errors.Is(err, source.ErrMemoryBudget) || !strings.HasPrefix(err.Error(), "line 4096: ") || n != memEvery {
		t.Fatalf("err %v after %d lines, want the budget at line %d", err, n, memEvery)
	}
	n = 0
	if err := EachLine(strings.NewReader(text), 0, func(int64, string) { n++ }, func(int64) {}); err != nil || n != memEvery+10 {
		t.Fatalf("without a budget: err %v after %d lines", err, n)
	}
}
