package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/ingest"
)

// TestAnalyzeLeavesTheTraceFolderAlone: analyze is read-only on its
// inputs; its dataset cache goes under $TPPTRACE_CACHE, and --no-cache
// keeps none.
func TestAnalyzeLeavesTheTraceFolderAlone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "default")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "..", "samples", "default"))); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(dir)
	for _, c := range []struct {
		args    []string
		entries int
	}{{[]string{"analyze", "--no-cache", dir}, 0}, {[]string{"analyze", dir}, 1}} {
		cache := t.TempDir()
		t.Setenv(ingest.CacheEnv, cache)
		if code, _, stderr := execCLI(t, c.args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		if after, _ := os.ReadDir(dir); len(after) != len(before) {
			t.Errorf("%v: the trace folder went from %d to %d entries", c.args, len(before), len(after))
		}
		if m, _ := filepath.Glob(filepath.Join(cache, "*", "*", "manifest.json")); len(m) != c.entries {
			t.Errorf("%v: %d cache entries under $%s, want %d", c.args, len(m), ingest.CacheEnv, c.entries)
		}
	}
}
