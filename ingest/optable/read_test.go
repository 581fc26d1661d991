package optable

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

func TestReadST(t *testing.T) {
	path := filepath.Join(shared.Dir(t), "traces", "bytedance_ST", "trace-ST.parquet")
	tab, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != 6784 || len(tab.OpTypes) != 13 {
		t.Fatalf("rows %d optypes %d (%v), want 6784 and 13", tab.Len(), len(tab.OpTypes), tab.OpTypes)
	}
	steps := map[int64]bool{}
	for i := range tab.Len() {
		steps[tab.Step[i]] = true
		if tab.DP[i] < 0 || tab.DP[i] > 1 || tab.Stage[i] < 0 || tab.Stage[i] > 3 {
			t.Fatalf("row %d: dp %d stage %d", i, tab.DP[i], tab.Stage[i])
		}
	}
	if len(steps) != 32 {
		t.Errorf("%d steps, want 32", len(steps))
	}
}

func TestReadGarbage(t *testing.T) {
	b := []byte("not parquet at all, PAR1")
	if _, err := Read(bytes.NewReader(b), int64(len(b))); err == nil {
		t.Fatal("no error for garbage")
	}
}

func TestSniff(t *testing.T) {
	if !Sniff("/x/trace-ST.parquet") || Sniff("/x/events.parquet") {
		t.Fatal("sniff")
	}
}
