package ingest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestShardedVersion1EqualsUnsharded: a sharded dataset whose shard.json
// files are in version 1 (every file's rank lists in full, as builds
// before version 2 wrote them; made here from the version 2 files) gives
// the Result of the unsharded read, whole and rank by rank.
func TestShardedVersion1EqualsUnsharded(t *testing.T) {
	dir := t.TempDir()
	sampletest.WriteKineto(t, dir, sampletest.Simulate(t, sampletest.Config(t, "big-64")))
	want := resultJSON(t, dir)
	root := filepath.Join(t.TempDir(), "ds")
	const n = 3
	for k := range n {
		if _, err := ingest.IngestShard(context.Background(), []string{dir}, source.Options{}, k, n, root, dataset.Manifest{Tool: "test"}); err != nil {
			t.Fatalf("shard %d/%d: %v", k, n, err)
		}
		toVersion1(t, filepath.Join(ingest.ShardDir(root, k), ingest.ShardFile))
	}
	if got := resultJSON(t, root); !bytes.Equal(got, want) {
		t.Fatalf("the Result of version 1 shards differs from the unsharded one (%d vs %d bytes)", len(got), len(want))
	}
	if got := rankedJSON(t, root); !bytes.Equal(got, want) {
		t.Fatalf("the Result of version 1 shards read rank by rank differs from the unsharded one (%d vs %d bytes)", len(got), len(want))
	}
}

// pgDoc is a rank's Kineto trace with one all-reduce on process group pg
// whose stated ranks are ranks ("" leaves them out).
func pgDoc(rank int, pg, ranks string) string {
	if ranks != "" {
		ranks = fmt.Sprintf(`, "Process Group Ranks": %q`, ranks)
	}
	return fmt.Sprintf(`{"distributedInfo": {"rank": %d}, "traceEvents": [
	{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0, "tid": 9, "ts": 5, "dur": 1,
	 "args": {"stream": 9, "Collective name": "allreduce", "Process Group Name": %q, "Process Group Description": "mesh_dp"%s}}]}`, rank, pg, ranks)
}

// TestShardedRankListsJoin: a process group name two groups use, their
// lists stated in files of different shards, is told apart by the join
// from both versions of shard.json as by one read: the join needs the
// other shards' lists.
func TestShardedRankListsJoin(t *testing.T) {
	dir := t.TempDir()
	for i, d := range []string{pgDoc(0, "3", "[0, 1]"), pgDoc(1, "3", "[0, 1]"), pgDoc(2, "3", "[2, 3]"), pgDoc(3, "3", "")} {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.pt.trace.json", i)), []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := comms(t, dir)
	if len(want) != 2 {
		t.Fatalf("one read: communicators %v, want two named apart", want)
	}
	root := filepath.Join(t.TempDir(), "ds")
	for k := range 2 {
		if _, err := ingest.IngestShard(context.Background(), []string{dir}, source.Options{}, k, 2, root, dataset.Manifest{Tool: "test"}); err != nil {
			t.Fatalf("shard %d/2: %v", k, err)
		}
	}
	if got := comms(t, root); !reflect.DeepEqual(got, want) {
		t.Fatalf("version 2 shards: communicators %v, want %v", got, want)
	}
	for k := range 2 {
		toVersion1(t, filepath.Join(ingest.ShardDir(root, k), ingest.ShardFile))
	}
	if got := comms(t, root); !reflect.DeepEqual(got, want) {
		t.Fatalf("version 1 shards: communicators %v, want %v", got, want)
	}
}

// comms loads path and gives its communicators' members by ID.
func comms(t *testing.T, path string) map[string][]int32 {
	t.Helper()
	tr, err := ingest.Load(context.Background(), []string{path}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]int32{}
	for _, c := range tr.Comms {
		m[c.ID] = c.Members
	}
	return m
}

// toVersion1 rewrites a version 2 shard.json in version 1: each file's
// groups by index become its lists in full; no version, no rank_lists.
func toVersion1(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	var lists []json.RawMessage
	var files []map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || json.Unmarshal(m["rank_lists"], &lists) != nil || json.Unmarshal(m["files"], &files) != nil {
		t.Fatalf("%s: not version 2: %v", path, err)
	}
	if string(m["version"]) != "2" || len(lists) == 0 {
		t.Fatalf("%s: version %s with %d rank lists, want version 2 with some", path, m["version"], len(lists))
	}
	for _, f := range files {
		var groups map[string]int
		if f["groups"] == nil {
			continue // a file stating no lists
		}
		if err := json.Unmarshal(f["groups"], &groups); err != nil {
			t.Fatal(err)
		}
		full := map[string]json.RawMessage{}
		for name, i := range groups {
			full[name] = json.RawMessage("null")
			if i >= 0 {
				full[name] = lists[i]
			}
		}
		delete(f, "groups")
		f["lists"] = marshal(t, full)
	}
	delete(m, "version")
	delete(m, "rank_lists")
	m["files"] = marshal(t, files)
	if err := os.WriteFile(path, marshal(t, m), 0o644); err != nil {
		t.Fatal(err)
	}
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
