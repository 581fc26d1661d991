package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheAvoidsReadOnlyFolders: a trace folder without write bits (as
// ../shared is laid out) gets its cache under the user cache directory,
// even when the tests run as root, who could write there anyway.
func TestCacheAvoidsReadOnlyFolders(t *testing.T) {
	traces := filepath.Join(t.TempDir(), "traces")
	if err := os.Mkdir(traces, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", filepath.Join(t.TempDir(), "xdg"))
	if err := os.Chmod(traces, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(traces, 0o755)
	root := cacheRoot(traces, "")
	if strings.HasPrefix(root, traces) {
		t.Fatalf("cache %s is inside the read-only folder %s", root, traces)
	}
	if _, err := os.Stat(filepath.Join(traces, CacheDirName)); !os.IsNotExist(err) {
		t.Fatalf("nothing may be created in the read-only folder: %v", err)
	}
	if err := os.Chmod(traces, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := cacheRoot(traces, ""); got != filepath.Join(traces, CacheDirName) {
		t.Fatalf("a writable folder keeps its cache beside the traces, got %s", got)
	}
}
