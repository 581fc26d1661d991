package tpptrace

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/kinetow"
	"github.com/tpptrace/tpptrace/samples/ncclw"
	"github.com/tpptrace/tpptrace/samples/nvmlw"
)

// datasetOf writes the named scenario as a dataset and returns its folder.
func datasetOf(t *testing.T, name string) string {
	t.Helper()
	cfg, err := samples.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	job, err := samples.Simulate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), name)
	if err := dataset.Write(dir, job.Trace, dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestByRankEqualsWhole: a dataset read rank by rank gives the Result of
// the dataset read whole, for step ranges with a cut last step, p2p
// without metadata and the DP-sync period; a second analysis too; and
// the what-if replay, which reads every event first.
func TestByRankEqualsWhole(t *testing.T) {
	for _, name := range []string{"default", "cut-last-step", "p2p-nometa", "late-rank"} {
		dir := datasetOf(t, name)
		whole, want := analyzed(t, []string{dir}, Options{}, AnalyzeOptions{})
		ranked, got := analyzed(t, []string{dir}, Options{ByRank: true}, AnalyzeOptions{})
		if ranked.ranked == nil || ranked.Model().Events.Len() >= whole.Model().Events.Len() {
			t.Fatalf("%s: ByRank read every event (%d of %d)", name, ranked.Model().Events.Len(), whole.Model().Events.Len())
		}
		if ranked.EventCount() != whole.EventCount() {
			t.Errorf("%s: EventCount %d, want %d", name, ranked.EventCount(), whole.EventCount())
		}
		if !bytes.Equal(jsonOf(t, got), jsonOf(t, want)) {
			t.Errorf("%s: the Result read rank by rank differs from the whole read's", name)
		}
		again, err := ranked.Analyze(context.Background(), AnalyzeOptions{})
		if err != nil || !bytes.Equal(jsonOf(t, again), jsonOf(t, want)) {
			t.Errorf("%s: a second analysis rank by rank differs (%v)", name, err)
		}
	}
}

func TestByRankWhatIfReadsEveryEvent(t *testing.T) {
	dir := datasetOf(t, "slow-rank")
	_, want := analyzed(t, []string{dir}, Options{}, AnalyzeOptions{WhatIf: true})
	ranked, got := analyzed(t, []string{dir}, Options{ByRank: true}, AnalyzeOptions{WhatIf: true})
	if ranked.ranked != nil {
		t.Error("the what-if replay left the trace read rank by rank")
	}
	if got.WhatIf == nil || !bytes.Equal(jsonOf(t, got), jsonOf(t, want)) {
		t.Error("--whatif of a dataset opened ByRank differs from the whole read's")
	}
}

// TestByRankWarmCache: trace files read ByRank are read rank by rank
// both cold (the entry written as a sharded dataset, ingest.LoadRankedCold)
// and warm (from that entry), each with the Result of the whole read.
func TestByRankWarmCache(t *testing.T) {
	cfg, err := samples.Lookup("slow-rank")
	if err != nil {
		t.Fatal(err)
	}
	job, err := samples.Simulate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "job")
	if err := kinetow.WriteDir(dir, job); err != nil {
		t.Fatal(err)
	}
	_, want := analyzed(t, []string{dir}, Options{NoCache: true}, AnalyzeOptions{})
	cache := t.TempDir()
	cold, got := analyzed(t, []string{dir}, Options{CacheDir: cache, ByRank: true}, AnalyzeOptions{})
	if cold.ranked == nil {
		t.Fatal("the cold read was not read rank by rank")
	}
	if !bytes.Equal(jsonOf(t, got), jsonOf(t, want)) {
		t.Error("the cold Result read rank by rank differs from the whole one")
	}
	cold.Close()
	warm, got := analyzed(t, []string{dir}, Options{CacheDir: cache, ByRank: true}, AnalyzeOptions{})
	if warm.ranked == nil {
		t.Fatal("the warm read was not read rank by rank")
	}
	if !bytes.Equal(jsonOf(t, got), jsonOf(t, want)) {
		t.Error("the warm Result read rank by rank differs from the whole one")
	}
}

// TestByRankMinEvents: ByRank reads a dataset rank by rank only from
// ByRankMinEvents events on; a smaller one is read whole.
func TestByRankMinEvents(t *testing.T) {
	dir := datasetOf(t, "default")
	whole, _ := analyzed(t, []string{dir}, Options{}, AnalyzeOptions{})
	n := int64(whole.EventCount())
	cases := []struct {
		min    int64
		ranked bool
	}{{0, true}, {n, true}, {n + 1, false}}
	for _, c := range cases {
		tr, _ := analyzed(t, []string{dir}, Options{ByRank: true, ByRankMinEvents: c.min}, AnalyzeOptions{})
		if got := tr.ranked != nil; got != c.ranked {
			t.Errorf("ByRankMinEvents %d of %d events: read rank by rank %v, want %v", c.min, n, got, c.ranked)
		}
	}
}

// TestByRankSharded: a sharded dataset read rank by rank holds only the
// cross-rank rows and gives the Result of the sharded dataset read whole.
func TestByRankSharded(t *testing.T) {
	job, err := samples.Simulate(mustLookup(t, "late-rank"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "job")
	if err := kinetow.WriteDir(dir, job); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "ds")
	for k := range 3 {
		if _, err := ingest.IngestShard(context.Background(), []string{dir}, source.Options{}, k, 3, root, dataset.Manifest{}); err != nil {
			t.Fatal(err)
		}
	}
	whole, want := analyzed(t, []string{root}, Options{}, AnalyzeOptions{})
	ranked, got := analyzed(t, []string{root}, Options{ByRank: true}, AnalyzeOptions{})
	if ranked.ranked == nil || ranked.Model().Events.Len() >= whole.Model().Events.Len() {
		t.Fatalf("ByRank read every event of the sharded dataset (%d of %d)", ranked.Model().Events.Len(), whole.Model().Events.Len())
	}
	if ranked.EventCount() != whole.EventCount() {
		t.Errorf("EventCount %d, want %d", ranked.EventCount(), whole.EventCount())
	}
	if !bytes.Equal(jsonOf(t, got), jsonOf(t, want)) {
		t.Error("the sharded Result read rank by rank differs from the whole read's")
	}
}

func mustLookup(t *testing.T, name string) samples.Config {
	t.Helper()
	cfg, err := samples.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestByRankNoCache: NoCache trace files, with NCCL logs and NVML samples
// beside them, are read rank by rank from a temporary entry in the cache
// directory, with the Result of the whole read; Close removes the entry,
// and a later analysis reads the inputs whole, with the same Result. A
// read cancelled while the entry is built leaves nothing either, and a job
// too small to be read rank by rank makes no cache directory. Nothing is
// written beside the inputs.
func TestByRankNoCache(t *testing.T) {
	dir := jobWithBeside(t, "slow-rank")
	before := filesUnder(t, dir)
	_, want := analyzed(t, []string{dir}, Options{NoCache: true}, AnalyzeOptions{})
	for _, given := range []bool{true, false} { // CacheDir given; "": $TPPTRACE_CACHE
		cache := t.TempDir()
		opts := Options{NoCache: true, ByRank: true}
		if given {
			opts.CacheDir = cache
		} else {
			t.Setenv(ingest.CacheEnv, filepath.Join(cache, "not", "yet")) // made, then removed
		}
		tr, err := Open(context.Background(), []string{dir}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if tr.ranked == nil || tr.Model().Events.Len() >= tr.EventCount() {
			t.Fatalf("CacheDir %v: NoCache was not read rank by rank", given)
		}
		if n := len(globOf(t, cache, "*", "*", ingest.TempPrefix+"*", "*", "shard=*")) + len(globOf(t, cache, ingest.TempPrefix+"*", "*", "shard=*")); n == 0 {
			t.Errorf("CacheDir %v: no temporary entry while the trace is open", given)
		}
		got, err := tr.Analyze(context.Background(), AnalyzeOptions{})
		if err != nil || !bytes.Equal(jsonOf(t, got), jsonOf(t, want)) {
			t.Errorf("CacheDir %v: the NoCache Result read rank by rank differs from the whole one (%v)", given, err)
		}
		tr.Close()
		if left := globOf(t, cache, "*"); len(left) > 0 {
			t.Errorf("CacheDir %v: NoCache left %q in the cache", given, left)
		}
		again, err := tr.Analyze(context.Background(), AnalyzeOptions{})
		if err != nil || tr.ranked != nil || !bytes.Equal(jsonOf(t, again), jsonOf(t, want)) {
			t.Errorf("CacheDir %v: an analysis after Close differs or failed (%v)", given, err)
		}
	}
	cache := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Open(ctx, []string{dir}, Options{NoCache: true, ByRank: true, CacheDir: cache}); err == nil {
		t.Error("a cancelled NoCache read rank by rank did not fail")
	}
	if left := globOf(t, cache, "*"); len(left) > 0 {
		t.Errorf("a cancelled NoCache read left %q in the cache", left)
	}
	none := filepath.Join(t.TempDir(), "none")
	t.Setenv(ingest.CacheEnv, none)
	if tr, _ := analyzed(t, []string{dir}, Options{NoCache: true, ByRank: true, ByRankMinEvents: 1 << 40}, AnalyzeOptions{}); tr.ranked != nil {
		t.Error("a NoCache job under ByRankMinEvents was read rank by rank")
	}
	if _, err := os.Stat(none); err == nil {
		t.Error("a NoCache job read whole made the cache directory")
	}
	if after := filesUnder(t, dir); !slices.Equal(after, before) {
		t.Errorf("NoCache wrote beside the inputs: %d files before, %d after", len(before), len(after))
	}
}

// jobWithBeside writes the scenario as Kineto traces, with its NCCL logs
// and NVML samples in nccl/ and nvml/, into a new folder.
func jobWithBeside(t *testing.T, name string) string {
	t.Helper()
	job, err := samples.Simulate(mustLookup(t, name))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "job")
	if err := kinetow.WriteDir(dir, job); err != nil {
		t.Fatal(err)
	}
	if _, err := ncclw.WriteLogs(filepath.Join(dir, "nccl"), job); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "nvml"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := nvmlw.Write(filepath.Join(dir, "nvml"), job); err != nil {
		t.Fatal(err)
	}
	return dir
}

// globOf is filepath.Glob of the pattern's parts joined under dir.
func globOf(t *testing.T, dir string, parts ...string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(append([]string{dir}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// filesUnder lists every path under dir.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		out = append(out, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestByRankDatasetBesideCached: a dataset with NCCL logs and NVML
// samples beside it, read rank by rank, has the logs' parse written to a
// cache entry (beside.json) by Close at the latest, read again by the next
// Open, with the Result of the whole read each time; with NoCache nothing
// is written.
func TestByRankDatasetBesideCached(t *testing.T) {
	dir := jobWithBeside(t, "slow-rank")
	ds := filepath.Join(t.TempDir(), "ds")
	tr, err := ingest.Load(context.Background(), globOf(t, dir, "*.json*"), source.Options{}) // the Kineto traces only
	if err == nil {
		err = dataset.Write(ds, tr, dataset.Manifest{})
	}
	if err != nil {
		t.Fatal(err)
	}
	inputs := []string{ds, filepath.Join(dir, "nccl"), filepath.Join(dir, "nvml")}
	_, want := analyzed(t, inputs, Options{NoCache: true}, AnalyzeOptions{})
	cache := t.TempDir()
	for i, opts := range []Options{{ByRank: true, CacheDir: cache}, {ByRank: true, CacheDir: cache}, {ByRank: true, NoCache: true, CacheDir: t.TempDir()}} {
		run := []string{"the first run", "the second run", "NoCache"}[i]
		got, err := Open(context.Background(), inputs, opts)
		if err != nil || got.ranked == nil {
			t.Fatalf("%s: not read rank by rank (%v)", run, err)
		}
		if got.wait == nil && !opts.NoCache {
			t.Errorf("%s: Close would not wait for the cache entry", run)
		}
		got.Close() // at once: it waits for the entry
		entries, n := globOf(t, opts.CacheDir, "*", "beside.json"), 1
		if opts.NoCache {
			entries, n = globOf(t, opts.CacheDir, "*"), 0
		}
		if len(entries) != n {
			t.Errorf("%s: %q in the cache after Close, want %d beside entries", run, entries, n)
		}
		res, err := got.Analyze(context.Background(), AnalyzeOptions{})
		if err != nil || !bytes.Equal(jsonOf(t, res), jsonOf(t, want)) {
			t.Errorf("%s: the Result read rank by rank differs from the whole read's (%v)", run, err)
		}
	}
}
