package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tpptrace/tpptrace/samples/shared"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

func rankDoc(rank int) string {
	return `{"distributedInfo": {"rank": ` + string(rune('0'+rank)) + `}, "traceEvents": [
	{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 10, "dur": 100},
	{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"correlation": 5}},
	{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 30, "dur": 10, "args": {"stream": 7, "correlation": 5}}]}`
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func skipFor(tr *model.Trace, path string) *model.Skip {
	for i := range tr.Skipped {
		if tr.Skipped[i].Source == path {
			return &tr.Skipped[i]
		}
	}
	return nil
}

func TestLoadDirectoryWithBadAndForeignFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "rank0.json", rankDoc(0))
	write(t, dir, "sub/rank1.json", rankDoc(1))
	bad := write(t, dir, "rank2.json", rankDoc(2)[:60])
	notes := write(t, dir, "notes.txt", "hello")
	write(t, dir, ".tpptrace-cache/junk.json", rankDoc(3))
	tr, err := Load(context.Background(), []string{dir}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Ranks) != 2 || tr.Ranks[0].Rank != 0 || tr.Ranks[1].Rank != 1 {
		t.Fatalf("ranks %+v", tr.Ranks)
	}
	if s := skipFor(tr, bad); s == nil || s.Unit != "byte" || s.Offset != 60 || !strings.Contains(s.Reason, bad) {
		t.Errorf("bad file record %+v", s)
	}
	if s := skipFor(tr, notes); s == nil || !strings.Contains(s.Reason, "no input format") {
		t.Errorf("foreign file record %+v", s)
	}
	if tr.Events.Iter[tr.Events.Len()-1] != 1 {
		t.Errorf("iterations not set")
	}
}

func TestLoadNothingReadable(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.txt", "hello")
	_, err := Load(context.Background(), []string{dir}, source.Options{})
	if err == nil || !strings.Contains(err.Error(), "a.txt") {
		t.Fatalf("want an error naming a.txt, got %v", err)
	}
	if _, err := Load(context.Background(), []string{filepath.Join(dir, "missing")}, source.Options{}); err == nil {
		t.Fatal("a missing input gave no error")
	}
}

func TestLoadDataset(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "raw/rank0.json", rankDoc(0))
	tr, err := Load(context.Background(), []string{filepath.Join(dir, "raw")}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	if err := dataset.Write(ds, tr, dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	back, err := Load(context.Background(), []string{ds}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if back.Events.Len() != tr.Events.Len() || len(back.Ranks) != 1 {
		t.Errorf("dataset gave %d events, want %d", back.Events.Len(), tr.Events.Len())
	}
}

func TestLoadCachedReusesUntilInputsChange(t *testing.T) {
	dir := t.TempDir()
	f := write(t, dir, "rank0.json", rankDoc(0))
	root := testCache(t, dir)
	tr1, err := LoadCached(context.Background(), []string{dir}, source.Options{}, "")
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := filepath.Glob(filepath.Join(root, "*", "manifest.json"))
	if len(entries) != 1 {
		t.Fatalf("cache entries %v", entries)
	}
	st1, _ := os.Stat(entries[0])
	tr2, err := LoadCached(context.Background(), []string{dir}, source.Options{}, "")
	if err != nil || tr2.Events.Len() != tr1.Events.Len() {
		t.Fatalf("cached read: %v", err)
	}
	if st2, _ := os.Stat(entries[0]); !st2.ModTime().Equal(st1.ModTime()) {
		t.Error("cache entry rewritten although the inputs did not change")
	}
	later := time.Now().Add(time.Hour)
	os.Chtimes(f, later, later)
	if _, err := LoadCached(context.Background(), []string{dir}, source.Options{}, ""); err != nil {
		t.Fatal(err)
	}
	after, _ := filepath.Glob(filepath.Join(root, "*", "manifest.json"))
	if len(after) != 1 || after[0] == entries[0] {
		t.Errorf("changed input did not replace the cache entry: %v -> %v", entries, after)
	}
}

func TestLoadSharedDLRM(t *testing.T) {
	dir := shared.Dir(t, "traces", "kineto", "param_dlrm_8rank")
	tr, err := Load(context.Background(), []string{dir}, source.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Ranks) != 8 {
		t.Fatalf("%d ranks, want 8", len(tr.Ranks))
	}
	comm := tr.CountByKind()[model.KindComm]
	if comm != 8*8 { // 5 all_to_all (SendRecv) + 3 all_reduce per rank
		t.Errorf("%d NCCL kernels, want 64", comm)
	}
}

// TestFileCacheIsNotReadAsInput: a cache older versions left beside a file
// (x.json.tpptrace-cache) is not walked as input, and no new one is made.
func TestFileCacheIsNotReadAsInput(t *testing.T) {
	dir := t.TempDir()
	f := write(t, dir, "rank0.json", rankDoc(0))
	testCache(t, dir)
	write(t, f+CacheDirName, "old/manifest.json", "{}")
	if _, err := LoadCached(context.Background(), []string{f}, source.Options{}, ""); err != nil {
		t.Fatal(err)
	}
	if es, _ := os.ReadDir(f + CacheDirName); len(es) != 1 {
		t.Fatalf("the load wrote beside the file: %d entries in its old cache folder", len(es))
	}
	tr, err := Load(context.Background(), []string{dir}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Skipped) != 0 || len(tr.Sources) != 1 {
		t.Errorf("the cache was walked: sources %d, skipped %+v", len(tr.Sources), tr.Skipped)
	}
}

func TestLoadDuplicateRanksFails(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a/rank0.json", rankDoc(0))
	write(t, dir, "b/rank0.json", rankDoc(0))
	var dup *model.DuplicateRankError
	if _, err := Load(context.Background(), []string{dir}, source.Options{}); !errors.As(err, &dup) {
		t.Fatalf("want a duplicate-rank error, got %v", err)
	}
}

// TestGeneratorCompanionsAndKinetoSpansAreNotSkippedInput: the bundled
// sample's job.json and truth.json, and Kineto's own "Trace" span in each
// trace, are not reported as skipped input; a job.json of another shape
// still is.
func TestGeneratorCompanionsAndKinetoSpansAreNotSkippedInput(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "samples", "default"))); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(context.Background(), []string{dir}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tr.Skipped {
		t.Errorf("skipped %s: %s", s.Source, s.Reason)
	}
	other := t.TempDir()
	write(t, other, "rank0.json", rankDoc(0))
	job := write(t, other, "job.json", `{"name": "mine", "nodes": 4}`)
	tr, err = Load(context.Background(), []string{other}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := skipFor(tr, job); s == nil || !strings.Contains(s.Reason, "no input format") {
		t.Errorf("a foreign job.json is not reported: %+v", s)
	}
}

// TestLoadCachedSeesADatasetWrittenAgain: a dataset given with a file
// beside it (so the whole read is cached) and then written again in place
// with another job is read again, not taken from the stale entry.
func TestLoadCachedSeesADatasetWrittenAgain(t *testing.T) {
	dir := t.TempDir()
	testCache(t, dir)
	write(t, dir, "one/rank0.json", rankDoc(0))
	write(t, dir, "two/rank0.json", rankDoc(0))
	write(t, dir, "two/rank1.json", rankDoc(1))
	ds, notes := filepath.Join(dir, "ds"), write(t, dir, "beside/notes.txt", "not a trace\n")
	for _, c := range []struct {
		job   string
		ranks int
	}{{"one", 1}, {"two", 2}, {"one", 1}} {
		tr, err := Load(context.Background(), []string{filepath.Join(dir, c.job)}, source.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := dataset.Write(ds, tr, dataset.Manifest{}); err != nil {
			t.Fatal(err)
		}
		got, err := LoadCached(context.Background(), []string{ds, notes}, source.Options{}, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Ranks) != c.ranks {
			t.Errorf("the dataset of job %s read through the cache: %d ranks, want %d", c.job, len(got.Ranks), c.ranks)
		}
	}
}
