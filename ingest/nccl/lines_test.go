package nccl

import (
	"errors"
	"fmt"
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

// failAfter gives its text, then an error instead of io.EOF.
type failAfter struct{ text string }

func (f *failAfter) Read(p []byte) (int, error) {
	if f.text == "" {
		return 0, errors.New("disk gone")
	}
	n := copy(p, f.text)
	f.text = f.text[n:]
	return n, nil
}

// TestEachLineBuffersShared: a read that stops with its reader's error
// (lines still buffered) leaves nothing of them to the next read, which
// sees its own lines only, numbered from 1, on one goroutine or several.
func TestEachLineBuffersShared(t *testing.T) {
	for range 2 {
		if err := EachLine(&failAfter{text: "a\nb\nc"}, 0, func(int64, string) {}, func(int64) {}); err == nil || !strings.Contains(err.Error(), "disk gone") {
			t.Fatalf("err %v, want the reader's", err)
		}
		var got []string
		err := EachLine(strings.NewReader("x\ny"), 0, func(n int64, s string) { got = append(got, fmt.Sprint(n, s)) }, func(int64) {})
		if err != nil || strings.Join(got, ",") != "1x,2y" {
			t.Fatalf("lines %q, err %v; want 1x,2y", got, err)
		}
	}
}
