package ingest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/model"
)

// worldFiles is n files as a shard reads them: each with its own copy of
// the world group (n ranks), its own two-rank group, one group with a nil
// list and one with an empty list.
func worldFiles(n int) []kineto.FileLists {
	files := make([]kineto.FileLists, n)
	for i := range files {
		world := make([]int32, n)
		for r := range world {
			world[r] = int32(r)
		}
		files[i] = kineto.FileLists{Path: "rank-" + string(rune('a'+i%26)) + ".json", Lists: map[string][]int32{
			"0": world, "pair": {int32(i / 2 * 2), int32(i/2*2 + 1)}, "nil": nil, "empty": {}}}
	}
	files = append(files, kineto.FileLists{Path: "nolists.json"})
	return files
}

// Version 2 holds a list that N files share once; read back, the files'
// lists are equal to what was written (nil and empty kept apart) and
// share one array.
func TestShardJSONListsOnce(t *testing.T) {
	const n = 64
	files := worldFiles(n)
	m := shardMeta{Version: shardVersion, Of: 1}
	m.RankLists, m.Files = packFiles(files)
	if len(m.RankLists) != 1+n/2+1 { // world, the pairs, the empty list
		t.Fatalf("%d rank lists, want %d", len(m.RankLists), 1+n/2+1)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if c := strings.Count(string(b), ",59,"); c != 1 {
		t.Errorf("rank 59 appears %d times in %s (want once: the world list)", c, ShardFile)
	}
	var back shardMeta
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	got, err := unpackFiles(&back, newListIntern())
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, got, files)
}

// checkFiles checks got equals want and shares one copy of each list.
func checkFiles(t *testing.T, got, want []kineto.FileLists) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("files read back differ:\n got %v\nwant %v", got, want)
	}
	if got[0].Lists["empty"] == nil || got[0].Lists["nil"] != nil {
		t.Errorf("nil and empty lists not kept apart: %#v %#v", got[0].Lists["nil"], got[0].Lists["empty"])
	}
	for _, f := range got[1 : len(got)-1] {
		if unsafe.SliceData(f.Lists["0"]) != unsafe.SliceData(got[0].Lists["0"]) {
			t.Fatalf("file %s has its own copy of the world list", f.Path)
		}
	}
}

// shardV1 is shard.json as builds before version 2 wrote it: every file's
// lists in full, no version.
type shardV1 struct {
	Shard int                `json:"shard"`
	Of    int                `json:"of"`
	Files []kineto.FileLists `json:"files"`
}

// writeV1 writes a sharded dataset's shard.json files in version 1, the
// files split evenly over n shards.
func writeV1(t *testing.T, root string, files []kineto.FileLists, n int) {
	t.Helper()
	for k := range n {
		dir := ShardDir(root, k)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := json.MarshalIndent(shardV1{k, n, files[k*len(files)/n : (k+1)*len(files)/n]}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ShardFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A version 1 shard.json still reads, its lists shared across the shards.
func TestShardMetasReadsVersion1(t *testing.T) {
	root := t.TempDir()
	files := worldFiles(16)
	writeV1(t, root, files, 3)
	metas, err := shardMetas(root, newListIntern())
	if err != nil {
		t.Fatal(err)
	}
	var got []kineto.FileLists
	for _, m := range metas {
		if m.Version != 0 || m.Files != nil {
			t.Errorf("shard %d: version %d, %d files left in the wire form", m.Shard, m.Version, len(m.Files))
		}
		got = append(got, m.files...)
	}
	checkFiles(t, got, files)
}

// A shard.json of a later version, a list index out of range or a file
// with lists of the other version is refused, saying so.
func TestShardMetasRefusesBadLists(t *testing.T) {
	cases := map[string]string{
		`{"version": 3, "shard": 0, "of": 1, "files": []}`:                                                       "version 3",
		`{"version": 2, "shard": 0, "of": 1, "rank_lists": [[0]], "files": [{"path": "a", "groups": {"0": 1}}]}`: "rank list 1 of 1",
		`{"version": 2, "shard": 0, "of": 1, "files": [{"path": "a", "groups": {"0": -2}}]}`:                     "rank list -2",
		`{"version": 2, "shard": 0, "of": 1, "files": [{"path": "a", "lists": {"0": [0]}}]}`:                     "wrong version",
		`{"shard": 0, "of": 1, "rank_lists": [[0]], "files": [{"path": "a", "groups": {"0": 0}}]}`:               "wrong version",
	}
	for text, want := range cases {
		root := t.TempDir()
		if err := os.MkdirAll(ShardDir(root, 0), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ShardDir(root, 0), ShardFile), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := shardMetas(root, newListIntern()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error saying %q", text, err, want)
		}
	}
}

// internComms leaves one array per distinct member list and the lists
// unchanged.
func TestInternComms(t *testing.T) {
	tr := &model.Trace{Comms: []model.Communicator{
		{ID: "a", Members: []int32{0, 1, 2}}, {ID: "b", Members: []int32{0, 1, 2}}, {ID: "c", Members: []int32{0, 1}}, {ID: "d"}}}
	want := slices.Clone(tr.Comms)
	internComms(tr, newListIntern())
	if !reflect.DeepEqual(tr.Comms, want) {
		t.Fatalf("comms changed: %v", tr.Comms)
	}
	if unsafe.SliceData(tr.Comms[0].Members) != unsafe.SliceData(tr.Comms[1].Members) {
		t.Error("equal member lists kept apart")
	}
	if unsafe.SliceData(tr.Comms[0].Members) == unsafe.SliceData(tr.Comms[2].Members) {
		t.Error("different member lists merged")
	}
}

// FuzzShardFiles: any files' lists survive pack, JSON and unpack, and
// unpacking any shard.json never panics.
func FuzzShardFiles(f *testing.F) {
	f.Add([]byte{3, 0, 1, 2, 0, 2, 1, 2, 3, 0})
	f.Add([]byte{})
	f.Add([]byte(`{"version":2,"rank_lists":[null],"files":[{"path":"a","groups":{"x":0}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m shardMeta
		if json.Unmarshal(b, &m) == nil {
			_, _ = unpackFiles(&m, newListIntern())
		}
		files := filesOf(b)
		var p shardMeta
		p.Version = shardVersion
		p.RankLists, p.Files = packFiles(files)
		text, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var back shardMeta
		if err := json.Unmarshal(text, &back); err != nil {
			t.Fatal(err)
		}
		got, err := unpackFiles(&back, newListIntern())
		if err != nil || len(files) > 0 && !reflect.DeepEqual(got, files) || len(got) != len(files) {
			t.Fatalf("round trip: %v\n got %v\nwant %v", err, got, files)
		}
	})
}

// filesOf makes files' lists of fuzz bytes: per file a count of groups,
// each a length (255: nil) and that many ranks.
func filesOf(b []byte) []kineto.FileLists {
	next := func() int {
		if len(b) == 0 {
			return 0
		}
		x := int(b[0])
		b = b[1:]
		return x
	}
	var files []kineto.FileLists
	for len(b) > 0 && len(files) < 64 {
		f := kineto.FileLists{Path: "f" + string(rune('a'+len(files)))}
		for g := next() % 4; g > 0; g-- {
			if f.Lists == nil {
				f.Lists = map[string][]int32{}
			}
			var r []int32
			if n := next(); n != 255 {
				r = []int32{}
				for range n % 8 {
					r = append(r, int32(next()))
				}
			}
			f.Lists[string(rune('p'+g))] = r
		}
		files = append(files, f)
	}
	return files
}
