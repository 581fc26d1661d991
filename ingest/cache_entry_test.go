package ingest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// testCache points the cache at a fresh folder for this test and returns
// the root dir's inputs get.
func testCache(t *testing.T, dir string) string {
	t.Helper()
	t.Setenv(CacheEnv, t.TempDir())
	return cacheRoot(dir, "")
}

// cacheEntry returns the one cache entry of dir's traces.
func cacheEntry(t *testing.T, dir string) string {
	t.Helper()
	root := testCache(t, dir)
	in, err := expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	key, err := cacheKey(in.files, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, key)
}

// TestPartialCacheEntryIsRebuilt: a run killed while writing the cache (as
// the old writer could be) left an entry without its manifest; the next
// run says so once, rebuilds it, and the one after reads it silently.
func TestPartialCacheEntryIsRebuilt(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "rank0.json", rankDoc(0))
	entry := cacheEntry(t, dir)
	write(t, entry, "events/rank=0/part-0.parquet", "PAR1 cut short")
	for i, wantWarn := range []bool{true, false} {
		warns := loadCachedWarning(t, dir)
		if got := strings.Contains(warns, "incomplete or unreadable: rebuilding"); got != wantWarn {
			t.Fatalf("run %d: warned %v, want %v:\n%s", i+1, got, wantWarn, warns)
		}
	}
	if _, err := os.Stat(filepath.Join(entry, "manifest.json")); err != nil {
		t.Fatalf("the entry was not rebuilt: %v", err)
	}
}

// loadCachedWarning loads paths through the cache and returns the warnings.
func loadCachedWarning(t *testing.T, paths ...string) string {
	t.Helper()
	var warns []string
	if _, err := LoadCached(context.Background(), paths, source.Options{Warn: func(m string) { warns = append(warns, m) }}, ""); err != nil {
		t.Fatal(err)
	}
	return strings.Join(warns, "\n")
}

// TestCacheWriteLeavesNoPartialAndPrunesStaleOnes: the entry appears whole
// by a rename; a partial directory an hour old (a killed run) is removed,
// a fresh one (a run in progress) is left.
func TestCacheWriteLeavesNoPartialAndPrunesStaleOnes(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "rank0.json", rankDoc(0))
	root := testCache(t, dir)
	stale, fresh := filepath.Join(root, partialPrefix+"old"), filepath.Join(root, partialPrefix+"new")
	os.MkdirAll(stale, 0o755)
	os.MkdirAll(fresh, 0o755)
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(stale, old, old)
	loadCachedWarning(t, dir)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a stale partial entry was kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a partial entry in progress was removed: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(root, partialPrefix+"*"))
	if len(left) != 1 {
		t.Errorf("partial directories left: %v", left)
	}
}

// TestCachedSourcesDoNotDependOnTheFirstCaller: the first run names the
// input relative to its directory, the second by an absolute path from
// elsewhere; each sees its own name.
func TestCachedSourcesDoNotDependOnTheFirstCaller(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "run"), "rank0.json", rankDoc(0))
	t.Chdir(dir)
	first, err := LoadCached(context.Background(), []string{"run"}, source.Options{}, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	abs := filepath.Join(dir, "run")
	second, err := LoadCached(context.Background(), []string{abs}, source.Options{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := first.Sources[0].Path, filepath.Join("run", "rank0.json"); got != want {
		t.Errorf("first run: source %q, want %q", got, want)
	}
	if got, want := second.Sources[0].Path, filepath.Join(abs, "rank0.json"); got != want {
		t.Errorf("second run, from the cache: source %q, want %q", got, want)
	}
}

// TestNoWritableCachePlaceMeansNoCache: a read-only trace folder and no
// user cache directory (HOME unset, as for some root jobs): the load works,
// says it does not cache, and writes nothing.
func TestNoWritableCachePlaceMeansNoCache(t *testing.T) {
	traces := filepath.Join(t.TempDir(), "traces")
	write(t, traces, "rank0.json", rankDoc(0))
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	if err := os.Chmod(traces, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(traces, 0o755)
	warns := loadCachedWarning(t, traces)
	if !strings.Contains(warns, "not caching") {
		t.Errorf("no warning that nothing is cached:\n%s", warns)
	}
	if _, err := os.Stat(filepath.Join(traces, CacheDirName)); !os.IsNotExist(err) {
		t.Errorf("a cache was made in the read-only folder: %v", err)
	}
}

// TestCacheHitRepeatsSkippedFileWarnings: the second run reads the cache
// and still names the empty trace file.
func TestCacheHitRepeatsSkippedFileWarnings(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "rank0.json", rankDoc(0))
	write(t, dir, "rank1.json", "")
	write(t, dir, "job.json", `{"tp": 2}`)
	for run := 1; run <= 2; run++ {
		warns := loadCachedWarning(t, dir)
		if !strings.Contains(warns, filepath.Join(dir, "rank1.json")+": an empty file") || strings.Contains(warns, "job.json") {
			t.Fatalf("run %d: warnings\n%s", run, warns)
		}
	}
}

// TestCachedDatasetSourcesAsRecorded: a dataset records the paths of the
// files it was ingested from, absolute or relative as ingest was given
// them; a run that reads it with a trace file beside it (the whole read,
// cached) says them as recorded, whether it names its inputs absolutely
// or relative to the working directory, and whoever wrote the entry, as
// the read without the cache does.
func TestCachedDatasetSourcesAsRecorded(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "job/rank0.json", rankDoc(0))
	write(t, dir, "more/rank1.json", rankDoc(1))
	t.Chdir(dir)
	testCache(t, t.TempDir())
	for _, raw := range []string{filepath.Join(dir, "job"), "job"} {
		tr, err := Load(context.Background(), []string{raw}, source.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ds := filepath.Join(dir, "ds-"+strings.ReplaceAll(raw, "/", "_"))
		if err := dataset.Write(ds, tr, dataset.Manifest{}); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, ds)
		for _, in := range [][]string{{ds, filepath.Join(dir, "more")}, {rel, "more"}, {ds, filepath.Join(dir, "more")}} {
			want, err := Load(context.Background(), in, source.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := LoadCached(context.Background(), in, source.Options{}, "")
			if err != nil {
				t.Fatal(err)
			}
			if g, w := sourcePaths(got), sourcePaths(want); !slices.Equal(g, w) {
				t.Errorf("dataset of %q read as %q: sources %q, want %q (the read without the cache)", raw, in, g, w)
			}
		}
	}
}

// sourcePaths lists the trace's source paths.
func sourcePaths(t *model.Trace) []string {
	var out []string
	for _, s := range t.Sources {
		out = append(out, s.Path)
	}
	return out
}
