package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// TestMain runs this test binary as the command itself when asPrimary is
// set in its environment (the tests below start it as tpptrace would be
// started, one process a shard), else the tests.
func TestMain(m *testing.M) {
	if os.Getenv(asPrimary) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// asPrimary makes the test binary tpptrace's main.
const asPrimary = "TPPTRACE_TEST_AS_MAIN"

// run runs the command with args in a process of its own, with a cache of
// the test's, and returns its stdout.
func run(cache string, args ...string) ([]byte, error) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asPrimary+"=1", "TPPTRACE_CACHE="+cache, "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("tpptrace %q: %w\n%s", args, err, errb.Bytes())
	}
	return out.Bytes(), nil
}

// tpptrace is run that fails the test on an error.
func tpptrace(t *testing.T, cache string, args ...string) []byte {
	t.Helper()
	out, err := run(cache, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestShardProcessesEqualUnsharded is issue 15's end-to-end check of
// sharded ingest: a 256-rank job's Kineto traces ingested by four
// 'tpptrace ingest --shard K/4' processes at once (as the tasks of a
// Slurm job array or a Kubernetes Indexed Job would, docs/sharding.md),
// then 'analyze --json' of the sharded dataset, gives the Result bytes of
// 'analyze --json' of the trace files themselves.
func TestShardProcessesEqualUnsharded(t *testing.T) {
	if testing.Short() {
		t.Skip("a 256-rank job (-short)")
	}
	dir, cache := t.TempDir(), t.TempDir()
	job, ds := filepath.Join(dir, "traces"), filepath.Join(dir, "job.ds")
	tpptrace(t, cache, "samples", "gen", "--scenario", "big-64", "--dp", "16", "-o", job)
	const n = 4
	var wg sync.WaitGroup
	for k := range n {
		wg.Go(func() { // t.Fatal only on the test's goroutine
			if _, err := run(cache, "ingest", "--shard", fmt.Sprintf("%d/%d", k, n), "-o", ds, job); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	shards, _ := filepath.Glob(filepath.Join(ds, "shard=*"))
	if len(shards) != n {
		t.Fatalf("%d shard directories, want %d", len(shards), n)
	}
	want := tpptrace(t, cache, "analyze", "--json", "--no-cache", job)
	if got := tpptrace(t, cache, "analyze", "--json", ds); !bytes.Equal(got, want) {
		t.Fatalf("the sharded dataset's Result (%d bytes) differs from the trace files' (%d bytes)", len(got), len(want))
	}
	var r struct {
		WorldSize int `json:"world_size"`
		Ranks     []json.RawMessage
		Layout    struct{ TP, PP, DP int }
	}
	if err := json.Unmarshal(want, &r); err != nil || r.WorldSize != 256 || len(r.Ranks) != 256 || r.Layout.DP != 16 {
		t.Errorf("the Result is not of the 256-rank job (DP 16): %v, world %d, %d ranks, layout %+v", err, r.WorldSize, len(r.Ranks), r.Layout)
	}
}
