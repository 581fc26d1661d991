package ingest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestShardedEqualsUnsharded ingests generated jobs in N shards (as N
// cluster tasks would, each writing its part), analyses the sharded
// dataset and checks that the Result JSON is identical to the unsharded
// analysis of the same files.
func TestShardedEqualsUnsharded(t *testing.T) {
	cases := []struct {
		scenario string
		dp       int
		shards   []int
	}{
		{"big-64", 0, []int{1, 4, 7}},
		{"p2p-nometa", 0, []int{3}},
		{"moe-ep4", 0, []int{5}},
		{"big-64", 16, []int{8}}, // 256 ranks
	}
	for _, c := range cases {
		cfg := sampletest.Config(t, c.scenario)
		if c.dp > 0 {
			if testing.Short() {
				continue
			}
			cfg.DP = c.dp
		}
		dir := t.TempDir()
		sampletest.WriteKineto(t, dir, sampletest.Simulate(t, cfg))
		want := resultJSON(t, dir)
		for _, n := range c.shards {
			t.Run(fmt.Sprintf("%s-%dranks-%dshards", c.scenario, cfg.World(), n), func(t *testing.T) {
				root := filepath.Join(t.TempDir(), "ds")
				for k := range n {
					if _, err := ingest.IngestShard(context.Background(), []string{dir}, source.Options{}, k, n, root, dataset.Manifest{Tool: "test"}); err != nil {
						t.Fatalf("shard %d/%d: %v", k, n, err)
					}
				}
				if got := resultJSON(t, root); !bytes.Equal(got, want) {
					t.Fatalf("the sharded Result differs from the unsharded one (%d vs %d bytes)", len(got), len(want))
				}
				if got := rankedJSON(t, root); !bytes.Equal(got, want) {
					t.Fatalf("the sharded Result read rank by rank differs from the unsharded one (%d vs %d bytes)", len(got), len(want))
				}
			})
		}
	}
}

// TestShardedNsysEqualsUnsharded does the same for jobs written as nsys
// exports: one per rank and one per node, with and without the
// communicator creation ranges (members then come from the ranks seen
// using a communicator, peers from their order), and with more shards
// than some shards have files.
func TestShardedNsysEqualsUnsharded(t *testing.T) {
	cases := []struct {
		scenario string
		opts     nsysw.Options
		shards   []int
	}{
		{"default", nsysw.Options{}, []int{1, 3, 16}},
		{"default", nsysw.Options{PerNode: true}, []int{2, 5}},
		{"p2p-nometa", nsysw.Options{NoCommInit: true}, []int{4}},
		{"big-64", nsysw.Options{Dialect: nsysw.DialectReal}, []int{7}},
	}
	for _, c := range cases {
		dir := t.TempDir()
		if _, err := nsysw.WriteDir(dir, sampletest.Job(t, c.scenario), c.opts); err != nil {
			t.Fatal(err)
		}
		want := resultJSON(t, dir)
		for _, n := range c.shards {
			t.Run(fmt.Sprintf("%s-%+v-%dshards", c.scenario, c.opts, n), func(t *testing.T) {
				root := filepath.Join(t.TempDir(), "ds")
				for k := range n {
					if _, err := ingest.IngestShard(context.Background(), []string{dir}, source.Options{}, k, n, root, dataset.Manifest{Tool: "test"}); err != nil {
						t.Fatalf("shard %d/%d: %v", k, n, err)
					}
				}
				if got := resultJSON(t, root); !bytes.Equal(got, want) {
					t.Fatalf("the sharded Result differs from the unsharded one (%d vs %d bytes)", len(got), len(want))
				}
				if got := rankedJSON(t, root); !bytes.Equal(got, want) {
					t.Fatalf("the sharded Result read rank by rank differs from the unsharded one (%d vs %d bytes)", len(got), len(want))
				}
			})
		}
	}
}

// TestShardedMissingShard checks that a sharded dataset missing a shard is
// refused, naming the shard.
func TestShardedMissingShard(t *testing.T) {
	dir := sampletest.KinetoDir(t, sampletest.Job(t, "default"))
	root := filepath.Join(t.TempDir(), "ds")
	for _, k := range []int{0, 2} {
		if _, err := ingest.IngestShard(context.Background(), []string{dir}, source.Options{}, k, 3, root, dataset.Manifest{}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := ingest.Load(context.Background(), []string{root}, source.Options{})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("shard 1 is missing")) {
		t.Fatalf("err = %v, want shard 1 named missing", err)
	}
}

func resultJSON(t *testing.T, path string) []byte {
	t.Helper()
	tr, err := ingest.Load(context.Background(), []string{path}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Analyze(context.Background(), tr, analysis.Options{})
	return marshalResult(t, res, err)
}

// marshalResult is the JSON of an analysis's Result, failing on its error.
func marshalResult(t *testing.T, res *result.Result, err error) []byte {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rankedJSON is resultJSON of a sharded dataset read rank by rank
// (LoadRanked, AnalyzeRanks), failing unless the trace held only the
// cross-rank rows.
func rankedJSON(t *testing.T, root string) []byte {
	t.Helper()
	rk, ok, err := ingest.LoadRanked([]string{root}, source.Options{}, 0, analysis.StepAnnotation(nil))
	if err != nil || !ok {
		t.Fatalf("LoadRanked: ok %v, %v", ok, err)
	}
	if _, isShards := rk.(*ingest.ShardedRanked); !isShards || int64(rk.Model().Events.Len()) >= rk.EventCount() {
		t.Fatalf("the sharded dataset was not read rank by rank (%T: %d of %d events held)", rk, rk.Model().Events.Len(), rk.EventCount())
	}
	res, err := analysis.AnalyzeRanks(context.Background(), rk.Model(), rk, analysis.Options{})
	return marshalResult(t, res, err)
}

// TestShardedRankedWarnsSkips: a sharded dataset read rank by rank warns of
// the inputs no format claimed, as the whole read does.
func TestShardedRankedWarnsSkips(t *testing.T) {
	dir := sampletest.KinetoDir(t, sampletest.Job(t, "default"))
	if err := os.WriteFile(filepath.Join(dir, "rank-99.trace.json"), []byte("not a trace"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "ds")
	for k := range 2 {
		if _, err := ingest.IngestShard(context.Background(), []string{dir}, source.Options{}, k, 2, root, dataset.Manifest{}); err != nil {
			t.Fatal(err)
		}
	}
	warned := func(load func(opts source.Options)) []string {
		var got []string
		load(source.Options{Warn: func(m string) { got = append(got, m) }})
		return got
	}
	whole := warned(func(o source.Options) { _, _ = ingest.Load(context.Background(), []string{root}, o) })
	ranked := warned(func(o source.Options) {
		_, _, _ = ingest.LoadRanked([]string{root}, o, 0, analysis.StepAnnotation(nil))
	})
	if len(whole) == 0 || !strings.Contains(strings.Join(whole, "\n"), "rank-99.trace.json") {
		t.Fatalf("the whole read warned %q, want the unclaimed file named", whole)
	}
	if !slices.Equal(ranked, whole) {
		t.Errorf("read rank by rank, warnings %q; read whole, %q", ranked, whole)
	}
}

// TestDatasetBesideRanked: one dataset given with the job's NCCL logs and
// NVML samples beside it is read rank by rank (LoadRanked), with the Result
// of the same inputs read whole; with a trace file beside it (two
// timelines), or a file that no format claims, it is left to the whole read
// or read with that file skipped, as Load reads it.
func TestDatasetBesideRanked(t *testing.T) {
	ds, side, dir := besideFixture(t)
	junk := filepath.Join(side, "notes.txt")
	if err := os.WriteFile(junk, []byte("not a trace\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, inputs := range [][]string{
		{ds, filepath.Join(side, "nccl"), filepath.Join(side, "nvml")},
		{ds, filepath.Join(side, "nvml"), junk},
		{ds, filepath.Join(side, "nvml"), filepath.Join(side, "flight-recorder")},
		{ds, filepath.Join(side, "nvml"), filepath.Join(side, "nccl-profiler")},
		{ds, filepath.Join(side, "nvml"), filepath.Join(side, "nccl-inspector")},
		{ds, filepath.Join(side, "nvml"), filepath.Join(side, "flight-recorder-timed")},                               // a Fallback part, reduced
		{ds, filepath.Join(side, "nccl"), filepath.Join(side, "nvml"), filepath.Join(side, "nccl-inspector-verbose")}, // the same
	} {
		besideRankedSame(t, inputs)
	}
	other := []string{ds, filepath.Join(dir, "rank-0.pt.trace.json.gz")}
	if _, ok, _ := ingest.LoadRanked(other, source.Options{}, 0, nil); ok {
		t.Error("a dataset with a trace file beside it was read rank by rank")
	}
}

// besideFixture writes the default job as one dataset (ds), its NCCL logs
// (one of an odd version: oddVersion), NVML samples, Flight Recorder dumps,
// NCCL profiler traces and Inspector records in side/nccl, side/nvml,
// side/flight-recorder, side/nccl-profiler and side/nccl-inspector, timed
// dumps and verbose records in side/flight-recorder-timed and
// side/nccl-inspector-verbose, and its Kineto traces in dir.
func besideFixture(t *testing.T) (ds, side, dir string) {
	t.Helper()
	job := sampletest.Job(t, "default")
	dir = sampletest.KinetoDir(t, job)
	tr, err := ingest.Load(context.Background(), []string{dir}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds = filepath.Join(t.TempDir(), "ds")
	if err := dataset.Write(ds, tr, dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	side = t.TempDir()
	writeBeside(t, side, job, []string{"nccl-log", "nvml", "flight-recorder", "nccl-profiler", "nccl-inspector", "flight-recorder-timed", "nccl-inspector-verbose"})
	oddVersion(t, filepath.Join(side, "nccl"))
	return ds, side, dir
}

// oddVersion gives the first NCCL log in dir a version outside those
// known, so that its parse warns (and the cache entry of the parse is to
// say it again).
func oddVersion(t *testing.T, dir string) {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no NCCL log in %s (%v)", dir, err)
	}
	b, err := os.ReadFile(logs[0])
	if err == nil {
		b = regexp.MustCompile(`NCCL version 2\.\d+`).ReplaceAll(b, []byte("NCCL version 2.99"))
		err = os.WriteFile(logs[0], b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// besideRankedSame checks that inputs (a dataset or sharded dataset, then
// files beside it) are read rank by rank (LoadRanked) with what is beside
// them merged, and analyse to the Result of the whole read, with its
// warnings; and so read twice with the parse of the files beside cached
// (LoadRankedCaching): the first run parses them and writes the entry, the
// second reads the entry and parses nothing.
func besideRankedSame(t *testing.T, inputs []string) {
	t.Helper()
	step := analysis.StepAnnotation(nil)
	whole := wholeRun(t, inputs)
	logs := slices.ContainsFunc(inputs, func(p string) bool { return filepath.Base(p) == "nccl" })
	if logs && !strings.Contains(strings.Join(whole.warned, "\n"), "NCCL version 2.99") {
		t.Fatalf("%q: the whole read warned %q, want the odd NCCL version said (oddVersion)", inputs, whole.warned)
	}
	besideRead(t, inputs, func(o source.Options) (ingest.Ranked, bool, error) {
		return ingest.LoadRanked(inputs, o, 0, step)
	}).same(t, whole, "read rank by rank")
	cache := t.TempDir()
	caching := func(o source.Options) (ingest.Ranked, bool, error) {
		return cachingRead(inputs, o, cache)
	}
	before := ingest.BesideParses()
	besideRead(t, inputs, caching).same(t, whole, "read rank by rank, caching the files beside")
	if ingest.BesideParses() == before {
		t.Errorf("%q: the first caching read parsed nothing", inputs)
	}
	if m, _ := filepath.Glob(filepath.Join(cache, "*", "beside.json")); len(m) != 1 {
		t.Errorf("%q: beside entries %q in the cache, want one", inputs, m)
	}
	if m, _ := filepath.Glob(filepath.Join(cache, "*", "beside=*", "events", "*")); len(m) > 0 {
		t.Errorf("%q: %d events files in the beside entry, want none (its files hold no event)", inputs, len(m))
	}
	before = ingest.BesideParses()
	besideRead(t, inputs, caching).same(t, whole, "read rank by rank from the cache entry")
	if n := ingest.BesideParses() - before; n != 0 {
		t.Errorf("%q: the repeat read parsed %d groups of files again, want none (the cache entry)", inputs, n)
	}
}

// besideRun is one read of besideRankedSame: its Result and warnings.
type besideRun struct {
	model  *model.Trace
	result []byte
	warned []string
}

// wholeRun is the whole read of inputs (Load), analysed.
func wholeRun(t *testing.T, inputs []string) besideRun {
	t.Helper()
	var run besideRun
	tr, err := ingest.Load(context.Background(), inputs, source.Options{Warn: func(msg string) { run.warned = append(run.warned, msg) }})
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Analyze(context.Background(), tr, analysis.Options{})
	run.model, run.result = tr, marshalResult(t, res, err)
	return run
}

// besideRead reads inputs rank by rank with load, warnings heard, and
// analyses them.
func besideRead(t *testing.T, inputs []string, load func(source.Options) (ingest.Ranked, bool, error)) besideRun {
	t.Helper()
	var run besideRun
	rk, ok, err := load(source.Options{Warn: func(msg string) { run.warned = append(run.warned, msg) }})
	if err != nil || !ok {
		t.Fatalf("reading %q rank by rank: ok %v, %v", inputs, ok, err)
	}
	run.model, run.result = rk.Model(), analyzeRanked(t, rk)
	return run
}

// same checks that run has what is beside merged, the Result of the whole
// read and its warnings.
func (run besideRun) same(t *testing.T, whole besideRun, how string) {
	t.Helper()
	m, w := run.model, whole.model
	if len(m.SampleGPUs) == 0 || len(m.Sources) != len(w.Sources) || len(m.Skipped) != len(w.Skipped) {
		t.Errorf("%s: the files beside were not merged (%d GPUs, %d of %d sources, %d of %d skips)", how,
			len(m.SampleGPUs), len(m.Sources), len(w.Sources), len(m.Skipped), len(w.Skipped))
	}
	if !slices.Equal(m.Streams, w.Streams) || m.Colls.Len() != w.Colls.Len() {
		t.Errorf("%s: %d streams, %d collectives; the whole read's %d, %d", how, len(m.Streams), m.Colls.Len(), len(w.Streams), w.Colls.Len())
	}
	if !bytes.Equal(run.result, whole.result) {
		t.Errorf("%s: the Result differs from the whole read's", how)
	}
	if !slices.Equal(run.warned, whole.warned) {
		t.Errorf("%s: warnings %q, the whole read's %q", how, run.warned, whole.warned)
	}
}

// TestShardedBesideRanked: a sharded dataset given with the job's NCCL
// logs and NVML samples beside it is read rank by rank (LoadRanked), with
// the Result of the same inputs read whole; with a file of another format
// beside it, it is left to the whole read.
func TestShardedBesideRanked(t *testing.T) {
	job := sampletest.Job(t, "default")
	dir := sampletest.KinetoDir(t, job)
	root := filepath.Join(t.TempDir(), "ds")
	for k := range 3 {
		if _, err := ingest.IngestShard(context.Background(), []string{dir}, source.Options{}, k, 3, root, dataset.Manifest{}); err != nil {
			t.Fatal(err)
		}
	}
	side := t.TempDir()
	nccl := []string{"nccl-log", "flight-recorder", "nccl-profiler", "nccl-inspector"}
	writeBeside(t, side, job, append(nccl, "nvml", "flight-recorder-timed", "nccl-inspector-verbose"))
	oddVersion(t, filepath.Join(side, "nccl"))
	inputs := []string{root, filepath.Join(side, "nccl"), filepath.Join(side, "nvml")}
	besideRankedSame(t, inputs)
	all := []string{root, filepath.Join(side, "nvml")}
	for _, f := range nccl[1:] {
		all = append(all, filepath.Join(side, f))
	}
	besideRankedSame(t, all)
	besideRankedSame(t, []string{root, filepath.Join(side, "nvml"), filepath.Join(side, "flight-recorder-timed"), filepath.Join(side, "nccl-inspector-verbose")})
	other := append(inputs, filepath.Join(dir, "rank-0.pt.trace.json.gz")) // a Kineto trace beside: two timelines
	if _, ok, _ := ingest.LoadRanked(other, source.Options{}, 0, nil); ok {
		t.Error("a sharded dataset with a trace file beside it was read rank by rank")
	}
}
