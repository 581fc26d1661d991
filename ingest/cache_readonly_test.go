package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheNeverWritesBesideInputs: the cache of a writable trace folder
// lives under $TPPTRACE_CACHE, else the user cache directory, and nothing
// is created in the folder itself; with neither place known there is no
// cache, and a warning says so.
func TestCacheNeverWritesBesideInputs(t *testing.T) {
	traces := t.TempDir()
	write(t, traces, "rank0.json", rankDoc(0))
	xdg := filepath.Join(t.TempDir(), "xdg")
	t.Setenv("XDG_CACHE_HOME", xdg)
	t.Setenv(CacheEnv, "")
	if root := cacheRoot(traces, ""); !strings.HasPrefix(root, filepath.Join(xdg, "tpptrace")) {
		t.Errorf("cache %s, want it under %s", root, filepath.Join(xdg, "tpptrace"))
	}
	own := t.TempDir()
	t.Setenv(CacheEnv, own)
	if root := cacheRoot(traces, ""); !strings.HasPrefix(root, own) {
		t.Errorf("cache %s, want it under $%s = %s", root, CacheEnv, own)
	}
	loadCachedWarning(t, traces)
	if es, _ := os.ReadDir(traces); len(es) != 1 {
		t.Errorf("the trace folder holds %d entries after a cached load, want only its trace", len(es))
	}
	if m, _ := filepath.Glob(filepath.Join(own, "*", "*", "manifest.json")); len(m) != 1 {
		t.Errorf("cache entries under $%s: %v, want one", CacheEnv, m)
	}
	t.Setenv(CacheEnv, "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if w := loadCachedWarning(t, traces); !strings.Contains(w, "not caching") {
		t.Errorf("without a cache directory: warnings %q, want one saying it does not cache", w)
	}
}
