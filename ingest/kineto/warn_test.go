package kineto

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// TestBadFileAmongGoodOnesIsWarned: the analysis goes on without the bad
// file, and the user hears about it on the warning channel, not only in the
// skipped list at the end.
func TestBadFileAmongGoodOnesIsWarned(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "rank-0.json")
	bad := filepath.Join(dir, "rank-1.json")
	os.WriteFile(good, []byte(`{"distributedInfo": {"rank": 0}, "traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.000, "dur": 2.000, "args": {"stream": 7, "device": 0, "correlation": 1}}]}`), 0o644)
	os.WriteFile(bad, []byte(`{"traceEvents": [{"ph": "X", "cat": "ker`), 0o644)
	var warned []string
	tr, err := Read(context.Background(), []string{good, bad}, source.Options{Warn: func(m string) { warned = append(warned, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Ranks) != 1 || len(warned) != 1 || !strings.Contains(warned[0], "rank-1.json") {
		t.Fatalf("ranks %d, warnings %q; want the good rank and one warning naming the bad file", len(tr.Ranks), warned)
	}
}
