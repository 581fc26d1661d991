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
	"github.com/tpptrace/tpptrace/samples/ncclw"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/nvmlw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestColdRankedEqualsWhole: a cold read rank by rank (LoadRankedCold)
// writes the cache entry as a sharded dataset, shard after shard, with the
// NCCL logs and NVML samples beside the traces as datasets beside the
// shards, and gives the Result of the whole read; then the warm entry
// gives it too, read rank by rank (LoadRankedCached) and whole
// (LoadCached).
func TestColdRankedEqualsWhole(t *testing.T) {
	cases := []struct {
		scenario, dialect string
		nsys              *nsysw.Options // nil: Kineto traces
		shardEvents       int64
		beside            []string // "nccl-log", "nvml", "nccl-inspector", ...: written beside the traces (writeBeside)
	}{
		{"big-64", "", nil, 30_000, nil},
		{"big-64", "", nil, 30_000, []string{"nccl-log", "nvml"}},
		{"default", samples.DialectMegatron, nil, 2_000, nil},
		{"default", samples.DialectPipelining, nil, 2_000, nil},
		{"default", samples.DialectKernelOnly, nil, 2_000, nil},
		{"default", "", nil, 2_000, []string{"nccl-log"}},
		{"default", "", nil, 2_000, []string{"nvml"}},
		{"default", "", nil, 2_000, []string{"nccl-inspector"}},
		{"default", "", nil, 2_000, []string{"flight-recorder"}},
		{"default", "", nil, 2_000, []string{"nccl-profiler"}},
		{"default", "", nil, 2_000, []string{"flight-recorder-timed"}},  // a Fallback part, reduced
		{"default", "", nil, 2_000, []string{"nccl-inspector-verbose"}}, // the same
		{"default", "", nil, 2_000, []string{"flight-recorder-timed", "nccl-inspector-verbose", "nccl-log"}},
		{"big-64", "", nil, 30_000, []string{"flight-recorder", "nccl-profiler", "nccl-inspector", "nccl-log", "nvml"}},
		{"default", "", &nsysw.Options{}, 1_000, []string{"flight-recorder", "nccl-inspector"}},
		{"default", "", &nsysw.Options{}, 1_000, nil},
		{"default", "", &nsysw.Options{}, 1_000, []string{"flight-recorder-timed", "nccl-inspector-verbose"}},
		{"default", "", &nsysw.Options{}, 1_000, []string{"nccl-log", "nvml"}},
		{"default", "", &nsysw.Options{Dialect: nsysw.DialectReal}, 1_000, nil}, // communicator hashes only
	}
	for _, c := range cases {
		format := "kineto"
		if c.nsys != nil {
			format = "nsys-" + string(c.nsys.Dialect)
		}
		t.Run(fmt.Sprintf("%s-%s-%s%s", c.scenario, c.dialect, format, strings.Join(append([]string{""}, c.beside...), "+")), func(t *testing.T) {
			dir := coldJob(t, c.scenario, c.dialect, c.nsys, c.beside...)
			if fallback := slices.Contains(c.beside, "flight-recorder-timed") || slices.Contains(c.beside, "nccl-inspector-verbose"); fallback && !dropsFallback(t, dir) {
				t.Fatal("the whole read dropped no collective timings of the files beside")
			}
			want := resultJSON(t, dir)
			defer ingest.SetShardEvents(c.shardEvents)()
			cache := t.TempDir()
			if got := coldRankedJSON(t, dir, cache, source.Options{}); !bytes.Equal(got, want) {
				t.Fatalf("the cold Result read rank by rank differs from the whole one (%d vs %d bytes)", len(got), len(want))
			}
			if n := shardsIn(t, cache); n < 2 {
				t.Fatalf("the cache entry holds %d shards, want several", n)
			}
			if n := besideIn(t, cache); n != len(c.beside) {
				t.Fatalf("the cache entry holds %d datasets beside the shards, want %d", n, len(c.beside))
			}
			sameTables(t, dir, cache)
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
// a new folder, with the files of the formats beside names beside them
// (writeBeside).
func coldJob(t *testing.T, scenario, dialect string, nsys *nsysw.Options, beside ...string) string {
	t.Helper()
	cfg := sampletest.Config(t, scenario)
	cfg.Dialect = dialect
	job := sampletest.Simulate(t, cfg)
	var dir string
	if nsys == nil {
		dir = sampletest.KinetoDir(t, job)
	} else {
		dir = t.TempDir()
		if _, err := nsysw.WriteDir(dir, job, *nsys); err != nil {
			t.Fatal(err)
		}
	}
	writeBeside(t, dir, job, beside)
	return dir
}

// writeBeside writes the job's files of each format beside names into
// dir: NCCL logs in dir/nccl, NVML samples in dir/nvml, NCCL Inspector
// records (plain or verbose) in dir/<name>, and those writeNCCLBeside
// writes.
func writeBeside(t *testing.T, dir string, job *samples.Job, beside []string) {
	t.Helper()
	for _, b := range beside {
		var err error
		switch b {
		case "nccl-log":
			_, err = ncclw.WriteLogs(filepath.Join(dir, "nccl"), job)
		case "nvml":
			if err = os.MkdirAll(filepath.Join(dir, "nvml"), 0o755); err == nil {
				_, err = nvmlw.Write(filepath.Join(dir, "nvml"), job)
			}
		case "nccl-inspector", "nccl-inspector-verbose":
			_, err = ncclw.WriteInspectorDir(filepath.Join(dir, b), job, ncclw.InspectorOptions{CommNames: true, Verbose: b == "nccl-inspector-verbose"})
		default:
			if !writeNCCLBeside(t, dir, job, b) {
				err = fmt.Errorf("unknown beside format %q", b)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
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

// sameTables checks that the warm entry read rank by rank holds the
// sources, ranks, streams, skip records, as many collectives,
// communicators and GPU samples as the whole read.
func sameTables(t *testing.T, dir, cache string) {
	t.Helper()
	whole, err := ingest.Load(context.Background(), []string{dir}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rk, ok := ingest.LoadRankedCached([]string{dir}, source.Options{}, cache, 1, analysis.StepAnnotation(nil))
	if !ok {
		t.Fatal("LoadRankedCached did not read the sharded entry")
	}
	m := rk.Model()
	switch {
	case !slices.Equal(m.Sources, whole.Sources):
		t.Errorf("sources: %d read rank by rank, %d whole", len(m.Sources), len(whole.Sources))
	case !slices.Equal(m.Ranks, whole.Ranks):
		t.Error("the ranks read rank by rank differ from the whole read's")
	case !slices.Equal(m.Streams, whole.Streams) || m.Colls.Len() != whole.Colls.Len() || !slices.Equal(m.Skipped, whole.Skipped):
		t.Errorf("streams, collectives, skip records: %d, %d, %d read rank by rank; %d, %d, %d whole",
			len(m.Streams), m.Colls.Len(), len(m.Skipped), len(whole.Streams), whole.Colls.Len(), len(whole.Skipped))
	case len(m.Comms) != len(whole.Comms) || len(m.SampleGPUs) != len(whole.SampleGPUs) || m.Samples.Len() != whole.Samples.Len():
		t.Errorf("communicators, sampled GPUs, samples: %d, %d, %d read rank by rank; %d, %d, %d whole",
			len(m.Comms), len(m.SampleGPUs), m.Samples.Len(), len(whole.Comms), len(whole.SampleGPUs), whole.Samples.Len())
	}
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

// besideIn counts the datasets beside the shards of the cache entries in
// cache, and checks that they hold no events files.
func besideIn(t *testing.T, cache string) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(cache, "*", "beside=*", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	// they hold no events, and no empty events file for each rank either
	if ev, _ := filepath.Glob(filepath.Join(cache, "*", "beside=*", "events", "*")); len(ev) > 0 {
		t.Errorf("%d events files beside the shards (%s, ...), want none", len(ev), ev[0])
	}
	return len(m)
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
