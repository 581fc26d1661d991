package ingest_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// besideCaching is LoadRankedCaching of inputs with the cache in cache.
func besideCaching(inputs []string, cache string) func(source.Options) (ingest.Ranked, bool, error) {
	return func(o source.Options) (ingest.Ranked, bool, error) {
		return cachingRead(inputs, o, cache)
	}
}

// cachingRead is LoadRankedCaching of inputs, once its cache entry is
// written (its wait).
func cachingRead(inputs []string, o source.Options, cache string) (ingest.Ranked, bool, error) {
	rk, wait, ok, err := ingest.LoadRankedCaching(inputs, o, cache, 0, analysis.StepAnnotation(nil))
	wait()
	return rk, ok, err
}

// besideParsed is how many groups of files a read of inputs by load
// parsed, after checking it against the whole read.
func besideParsed(t *testing.T, inputs []string, whole besideRun, load func(source.Options) (ingest.Ranked, bool, error), how string) int64 {
	t.Helper()
	before := ingest.BesideParses()
	besideRead(t, inputs, load).same(t, whole, how)
	return ingest.BesideParses() - before
}

// TestBesideCacheDamaged: a beside entry that lost a dataset, or whose
// beside.json is not valid, is parsed again, with the Result and warnings
// of the whole read, and written again: the next read parses nothing.
func TestBesideCacheDamaged(t *testing.T) {
	ds, side, _ := besideFixture(t)
	inputs := []string{ds, filepath.Join(side, "nccl"), filepath.Join(side, "nvml")}
	whole, cache := wholeRun(t, inputs), t.TempDir()
	load := besideCaching(inputs, cache)
	besideParsed(t, inputs, whole, load, "the first read")
	for _, damage := range []string{filepath.Join("beside=00001", "manifest.json"), "beside.json"} {
		m, _ := filepath.Glob(filepath.Join(cache, "*", "beside.json"))
		if len(m) != 1 {
			t.Fatalf("beside entries %q, want one", m)
		}
		entry := filepath.Dir(m[0])
		if err := os.WriteFile(filepath.Join(entry, damage), []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
		if n := besideParsed(t, inputs, whole, load, "the read of a damaged entry"); n != 2 {
			t.Errorf("with %s damaged: %d groups parsed, want 2", damage, n)
		}
		if n := besideParsed(t, inputs, whole, load, "the read after"); n != 0 {
			t.Errorf("after %s was damaged: the entry was not written again (%d groups parsed)", damage, n)
		}
	}
}

// TestBesideCacheUnwritable: with no writable cache (a read-only
// $TPPTRACE_CACHE, a cache directory that is a file) the files beside
// a dataset are parsed every time, with no error, and nothing is written.
func TestBesideCacheUnwritable(t *testing.T) {
	ds, side, _ := besideFixture(t)
	inputs := []string{ds, filepath.Join(side, "nccl"), filepath.Join(side, "nvml")}
	whole := wholeRun(t, inputs)
	locked := filepath.Join(t.TempDir(), "locked")
	if err := os.Mkdir(locked, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Setenv(ingest.CacheEnv, locked)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cache := range []string{"", file} {
		for range 2 {
			if n := besideParsed(t, inputs, whole, besideCaching(inputs, cache), "a read without a cache"); n != 2 {
				t.Errorf("cache %q: %d groups parsed, want 2", cache, n)
			}
		}
	}
	if es, _ := os.ReadDir(locked); len(es) != 0 {
		t.Errorf("the read-only folder holds %d entries", len(es))
	}
}

// TestBesideCacheMemory: a beside entry read past the memory budget is
// not read rank by rank (the whole read says what is wrong), as its parse
// is not.
func TestBesideCacheMemory(t *testing.T) {
	ds, side, _ := besideFixture(t)
	inputs := []string{ds, filepath.Join(side, "nccl"), filepath.Join(side, "nvml")}
	whole, cache := wholeRun(t, inputs), t.TempDir()
	besideParsed(t, inputs, whole, besideCaching(inputs, cache), "the first read")
	tight := source.Options{MaxMemory: 1}
	if _, ok, err := ingest.LoadRanked(inputs, tight, 0, nil); ok || err != nil {
		t.Fatalf("parsed past the budget: ok %v, %v; want not read rank by rank", ok, err)
	}
	before := ingest.BesideParses()
	if _, ok, err := besideCaching(inputs, cache)(tight); ok || err != nil {
		t.Errorf("the entry read past the budget: ok %v, %v; want not read rank by rank", ok, err)
	}
	if n := ingest.BesideParses() - before; n != 0 {
		t.Errorf("the entry read past the budget parsed %d groups, want none", n)
	}
}

// TestBesideCacheWait: the beside entry is written in the background, and
// LoadRankedCaching's wait returns once it is.
func TestBesideCacheWait(t *testing.T) {
	ds, side, _ := besideFixture(t)
	inputs := []string{ds, filepath.Join(side, "nccl"), filepath.Join(side, "nvml")}
	cache := t.TempDir()
	release := ingest.HoldBesideWrites()
	_, wait, ok, err := ingest.LoadRankedCaching(inputs, source.Options{}, cache, 0, analysis.StepAnnotation(nil))
	if err != nil || !ok {
		release()
		t.Fatalf("LoadRankedCaching: ok %v, %v", ok, err)
	}
	if m, _ := filepath.Glob(filepath.Join(cache, "*", "beside.json")); len(m) != 0 {
		t.Errorf("the entry %q was written while its write was held", m)
	}
	release()
	wait()
	if m, _ := filepath.Glob(filepath.Join(cache, "*", "beside.json")); len(m) != 1 {
		t.Errorf("beside entries %q once wait returned, want one", m)
	}
}

// TestBesideCacheNames: runs that name the files beside a dataset
// differently (relative to the working directory, absolute) read one
// entry: the second and third runs parse nothing, each with the Result and
// warnings of its own names' whole read.
func TestBesideCacheNames(t *testing.T) {
	ds, side, _ := besideFixture(t)
	abs := []string{ds, filepath.Join(side, "nccl"), filepath.Join(side, "nvml"), filepath.Join(side, "flight-recorder")}
	rel := []string{ds, "nccl", "nvml", "flight-recorder"}
	t.Chdir(side)
	wholeAbs, wholeRel, cache := wholeRun(t, abs), wholeRun(t, rel), t.TempDir()
	if slices.Equal(wholeAbs.warned, wholeRel.warned) || len(wholeRel.warned) == 0 {
		t.Fatalf("fixture: warnings %q and %q, want ones that name the files", wholeAbs.warned, wholeRel.warned)
	}
	besideParsed(t, abs, wholeAbs, besideCaching(abs, cache), "the first read (absolute names)")
	if n := besideParsed(t, rel, wholeRel, besideCaching(rel, cache), "the read with relative names"); n != 0 {
		t.Errorf("relative names: %d groups parsed, want none (the entry of the absolute names)", n)
	}
	if n := besideParsed(t, abs, wholeAbs, besideCaching(abs, cache), "the read with absolute names again"); n != 0 {
		t.Errorf("absolute names again: %d groups parsed, want none", n)
	}
	if m, _ := filepath.Glob(filepath.Join(cache, "*", "beside.json")); len(m) != 1 {
		t.Errorf("beside entries %q, want one", m)
	}
}
