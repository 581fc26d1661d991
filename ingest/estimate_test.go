package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMayHoldEvents: the inputs' uncompressed bytes (a gzip file's as its
// trailer says) at NsysBytesPerEvent each bound the events: at the bound
// yes, one event past it no; no minimum, or a path that is not there, yes.
func TestMayHoldEvents(t *testing.T) {
	dir := t.TempDir()
	writeGzip(t, filepath.Join(dir, "a.json.gz"), strings.Repeat("x", 9000)) // 9,000 bytes inflated
	writeFile(t, filepath.Join(dir, "b.json"), strings.Repeat("y", 900))
	const bound = (9000 + 900) / NsysBytesPerEvent // 110 events
	for _, c := range []struct {
		paths []string
		min   int64
		want  bool
	}{
		{[]string{dir}, bound, true},
		{[]string{dir}, bound + 1, false},
		{[]string{filepath.Join(dir, "b.json")}, 10, true},
		{[]string{filepath.Join(dir, "b.json")}, 11, false},
		{[]string{dir}, 0, true},
		{[]string{filepath.Join(dir, "missing")}, 1 << 40, true},
	} {
		if got := MayHoldEvents(c.paths, c.min); got != c.want {
			t.Errorf("MayHoldEvents(%v, %d) = %v, want %v", c.paths, c.min, got, c.want)
		}
	}
}
