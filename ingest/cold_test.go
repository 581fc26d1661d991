package ingest_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestColdRankedEqualsWhole: a cold read rank by rank (LoadRankedCold)
// writes the cache entry as a sharded dataset, shard after shard, and
// gives the Result of the whole read; then the warm entry gives it too,
// read rank by rank (LoadRankedCached) and whole (LoadCached).
func TestColdRankedEqualsWhole(t *testing.T) {
	cases := []struct {
		scenario, dialect string
		nsys              *nsysw.Options // nil: Kineto traces
		shardEvents       int64
	}{
		{"big-64", "", nil, 30_000},
		{"default", samples.DialectMegatron, nil, 2_000},
		{"default", samples.DialectPipelining, nil, 2_000},
		{"default", samples.DialectKernelOnly, nil, 2_000},
		{"default", "", &nsysw.Options{}, 1_000},
		{"default", "", &nsysw.Options{Dialect: nsysw.DialectReal}, 1_000}, // communicator hashes only
	}
	for _, c := range cases {
		format := "kineto"
		if c.nsys != nil {
			format = "nsys-" + string(c.nsys.Dialect)
		}
		t.Run(fmt.Sprintf("%s-%s-%s", c.scenario, c.dialect, format), func(t *testing.T) {
			dir := coldJob(t, c.scenario, c.dialect, c.nsys)
			want := resultJSON(t, dir)
			defer ingest.SetShardEvents(c.shardEvents)()
			cache := t.TempDir()
			if got := coldRankedJSON(t, dir, cache, source.Options{}); !bytes.Equal(got, want) {
				t.Fatalf("the cold Result read rank by rank differs from the whole one (%d vs %d bytes)", len(got), len(want))
			}
			if n := shardsIn(t, cache); n < 2 {
				t.Fatalf("the cache entry holds %d shards, want several", n)
			}
			if _, ok, _ := ingest.LoadRankedCold(context.Background(), []string{dir}, source.Options{}, cache, 0, nil); ok {
				t.Error("LoadRankedCold rebuilt a warm entry")
			}
			if got := warmRankedJSON(t, dir, cache); !bytes.Equal(got, want) {
				t.Error("the warm Result read rank by rank from the sharded entry differs from the whole one")
			}
			if got := cachedJSON(t, dir, cache); !bytes.Equal(got, want) {
				t.Error("the Result of the sharded entry read whole (LoadCached) differs from the whole one")
			}
		})
	}
}

// TestColdRankedCorruptFile: with a rank file that cannot be read, one
// cut short and a file no format claims, the cold read rank by rank warns as the whole
// read does, once, and gives its Result, with every file its own shard.
func TestColdRankedCorruptFile(t *testing.T) {
	dir := coldJob(t, "default", "", nil)
	if err := os.WriteFile(filepath.Join(dir, "rank-2.pt.trace.json"), []byte(`{"traceEvents": [{"ph": "X", `), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "rank-2.pt.trace.json.gz")); err != nil {
		t.Fatal(err)
	}
	truncate(t, filepath.Join(dir, "rank-3.pt.trace.json.gz"))
	if err := os.WriteFile(filepath.Join(dir, "rank-99.trace.json"), []byte("not a trace"), 0o644); err != nil {
		t.Fatal(err)
	}
	var whole sampletest.Warnings
	tr, err := ingest.Load(context.Background(), []string{dir}, source.Options{Warn: whole.Add})
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Analyze(context.Background(), tr, analysis.Options{})
	want := marshalResult(t, res, err)
	joined := whole.String()
	if !strings.Contains(joined, "rank-3.pt.trace.json.gz") || !strings.Contains(joined, "rank-99.trace.json") {
		t.Fatalf("the whole read warned %q, want the files named", whole.Msgs())
	}
	for _, per := range []int64{1, 40_000} { // each file a shard; shards of several files
		restore := ingest.SetShardEvents(per)
		var cold sampletest.Warnings
		cache := t.TempDir()
		got := coldRankedJSON(t, dir, cache, source.Options{Warn: cold.Add})
		restore()
		if n := shardsIn(t, cache); n < 2 {
			t.Errorf("%d events a shard: %d shards, want several", per, n)
		}
		if !slices.Equal(cold.Msgs(), whole.Msgs()) {
			t.Errorf("%d events a shard: read cold rank by rank, warnings %q; read whole, %q", per, cold.Msgs(), whole.Msgs())
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%d events a shard: the cold Result read rank by rank differs from the whole one", per)
		}
	}
}

// truncate cuts a file to half its size.
func truncate(t *testing.T, path string) {
	t.Helper()
	st, err := os.Stat(path)
	if err == nil {
		err = os.Truncate(path, st.Size()/2)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestColdRankedSmallJob: a job estimated below minEvents is left to the
// whole read, with nothing written.
func TestColdRankedSmallJob(t *testing.T) {
	dir := coldJob(t, "default", "", nil)
	cache := t.TempDir()
	if _, ok, err := ingest.LoadRankedCold(context.Background(), []string{dir}, source.Options{}, cache, 1<<40, nil); ok || err != nil {
		t.Fatalf("a small job was read cold rank by rank (%v)", err)
	}
	if left, _ := os.ReadDir(cache); len(left) > 0 {
		t.Errorf("the small job left %d entries in the cache", len(left))
	}
}

// coldJob writes a generated job, as Kineto traces or nsys exports, into
// a new folder.
func coldJob(t *testing.T, scenario, dialect string, nsys *nsysw.Options) string {
	t.Helper()
	cfg := sampletest.Config(t, scenario)
	cfg.Dialect = dialect
	job := sampletest.Simulate(t, cfg)
	if nsys == nil {
		return sampletest.KinetoDir(t, job)
	}
	dir := t.TempDir()
	if _, err := nsysw.WriteDir(dir, job, *nsys); err != nil {
		t.Fatal(err)
	}
	return dir
}

// coldRankedJSON is the Result of LoadRankedCold and AnalyzeRanks.
func coldRankedJSON(t *testing.T, dir, cache string, opts source.Options) []byte {
	t.Helper()
	rk, ok, err := ingest.LoadRankedCold(context.Background(), []string{dir}, opts, cache, 1, analysis.StepAnnotation(nil))
	if err != nil || !ok {
		t.Fatalf("LoadRankedCold: ok %v, %v", ok, err)
	}
	return analyzeRanked(t, rk)
}

func warmRankedJSON(t *testing.T, dir, cache string) []byte {
	t.Helper()
	rk, ok := ingest.LoadRankedCached([]string{dir}, source.Options{}, cache, 1, analysis.StepAnnotation(nil))
	if !ok {
		t.Fatal("LoadRankedCached did not read the sharded entry")
	}
	return analyzeRanked(t, rk)
}

func analyzeRanked(t *testing.T, rk ingest.Ranked) []byte {
	t.Helper()
	if _, isShards := rk.(*ingest.ShardedRanked); !isShards || int64(rk.Model().Events.Len()) >= rk.EventCount() {
		t.Fatalf("not read rank by rank from shards (%T: %d of %d events held)", rk, rk.Model().Events.Len(), rk.EventCount())
	}
	res, err := analysis.AnalyzeRanks(context.Background(), rk.Model(), rk, analysis.Options{})
	return marshalResult(t, res, err)
}

func cachedJSON(t *testing.T, dir, cache string) []byte {
	t.Helper()
	tr, err := ingest.LoadCached(context.Background(), []string{dir}, source.Options{}, cache)
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Analyze(context.Background(), tr, analysis.Options{})
	return marshalResult(t, res, err)
}

// shardsIn counts the shards of the cache entries in cache.
func shardsIn(t *testing.T, cache string) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(cache, "*", "shard=*", ingest.ShardFile))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}
