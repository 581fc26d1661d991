package dataset

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/model"
)

func writeFixture(t *testing.T, steps int) (string, *model.Trace) {
	t.Helper()
	tr := buildTrace(t, steps)
	dir := filepath.Join(t.TempDir(), "ds")
	if err := Write(dir, tr, Manifest{Tool: "tpptrace test", Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	return dir, tr
}

// writeRead writes tr as a dataset into a new temporary folder and reads
// it back.
func writeRead(t *testing.T, tr *model.Trace, man Manifest) (string, *model.Trace, Manifest) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	if err := Write(dir, tr, man); err != nil {
		t.Fatal(err)
	}
	got, m, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, got, m
}

func sortedCopy(t *testing.T, tr *model.Trace) *model.Trace {
	t.Helper()
	s, err := model.Merge(tr) // Merge copies and sorts
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRoundTrip(t *testing.T) {
	tr := buildTrace(t, 3)
	before := dump(tr)
	_, got, m := writeRead(t, tr, Manifest{Tool: "tpptrace test"})
	diffDumps(t, before, dump(tr)) // Write must not reorder its input
	if err := got.Validate(); err != nil {
		t.Fatalf("read trace is invalid: %v", err)
	}
	diffDumps(t, dump(sortedCopy(t, tr)), dump(got))
	if m.SchemaVersion != SchemaVersion || m.Events != int64(tr.Events.Len()) || !slices.Equal(m.Ranks, []int32{0, 1, 2, 3}) {
		t.Fatalf("manifest not filled: %+v", m)
	}
	if m.Tool != "tpptrace test" || m.Created.IsZero() || len(m.Sources) != 2 || m.Sources[0] != tr.Sources[0] {
		t.Fatalf("manifest caller fields lost: %+v", m)
	}
}

func TestWriteSortedInputUnchanged(t *testing.T) {
	tr := sortedCopy(t, buildTrace(t, 2))
	_, got, m := writeRead(t, tr, Manifest{})
	diffDumps(t, dump(tr), dump(got))
	if m.Tool != "tpptrace" {
		t.Fatalf("default tool = %q", m.Tool)
	}
}

func TestManifestJSONKeys(t *testing.T) {
	dir, _ := writeFixture(t, 1)
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schema_version", "tool", "created", "sources", "ranks", "rank_events", "events", "collectives"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("manifest has no %q key: %s", k, b)
		}
	}
	src := raw["sources"].([]any)[0].(map[string]any)
	if src["path"] != "rank0.json" || src["format"] != "kineto" {
		t.Errorf("source keys not snake_case: %v", src)
	}
}

func TestReadRanksOpensOnlyThoseRanks(t *testing.T) {
	dir, tr := writeFixture(t, 2)
	rm(t, EventsPath(dir, 0))
	if _, _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "rank=00000.parquet") {
		t.Fatalf("Read with a missing rank file = %v, want an error naming it", err)
	}
	rm(t, filepath.Join(dir, collsFile))
	got, _, err := ReadRanks(dir, []int32{3, 1, 3})
	if err != nil {
		t.Fatalf("ReadRanks must not touch rank 0's file nor the collective table: %v", err)
	}
	if err := got.Validate(); err != nil {
		t.Fatalf("ReadRanks trace invalid: %v", err)
	}
	want := sortedCopy(t, tr)
	for _, r := range []int32{1, 3} {
		wlo, whi := want.Events.RankRange(r)
		glo, ghi := got.Events.RankRange(r)
		if whi-wlo != ghi-glo || ghi-glo == 0 {
			t.Fatalf("rank %d: want %d events, got %d", r, whi-wlo, ghi-glo)
		}
		for i := range whi - wlo {
			if want.Name(wlo+i) != got.Name(glo+i) || want.Events.Start[wlo+i] != got.Events.Start[glo+i] {
				t.Fatalf("rank %d event %d differs", r, i)
			}
			checkSameColl(t, want, wlo+i, got, glo+i)
		}
	}
	if got.Colls.Len() != countColls(want, 1, 3) {
		t.Fatalf("got %d collectives, want the %d of ranks 1 and 3", got.Colls.Len(), countColls(want, 1, 3))
	}
	if n := got.Events.Len(); n != countRanks(want, 1, 3) {
		t.Fatalf("got %d events, want only ranks 1 and 3's %d", n, countRanks(want, 1, 3))
	}
}

func checkSameColl(t *testing.T, a *model.Trace, i int, b *model.Trace, j int) {
	t.Helper()
	ca, cb := a.Events.Coll[i], b.Events.Coll[j]
	if (ca < 0) != (cb < 0) {
		t.Fatalf("collective presence differs: %d vs %d", ca, cb)
	}
	if ca >= 0 {
		x, y := a.Colls.At(int(ca)), b.Colls.At(int(cb))
		if x.Op != y.Op || x.Bytes != y.Bytes || x.Seq != y.Seq || a.Names.Get(x.DType) != b.Names.Get(y.DType) {
			t.Fatalf("collective differs: %+v vs %+v", x, y)
		}
	}
}

func countRanks(tr *model.Trace, ranks ...int32) int {
	n := 0
	for _, r := range tr.Events.Rank {
		if slices.Contains(ranks, r) {
			n++
		}
	}
	return n
}

func countColls(tr *model.Trace, ranks ...int32) int {
	seen := map[int32]bool{}
	for i, r := range tr.Events.Rank {
		if c := tr.Events.Coll[i]; c >= 0 && slices.Contains(ranks, r) {
			seen[c] = true
		}
	}
	return len(seen)
}

// TestReadRanksAllEqualsRead checks that the collectives rebuilt from the
// events files equal collectives.parquet when every rank is asked for.
func TestReadRanksAllEqualsRead(t *testing.T) {
	dir, tr := writeFixture(t, 2)
	all, _, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := all.Events.RankRange(1)
	part, _, err := ReadRanks(dir, []int32{0, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := range part.Events.Len() {
		j := i
		if i >= lo {
			j = i + hi - lo
		}
		checkSameColl(t, all, j, part, i)
	}
	if part.Colls.Len() != countColls(sortedCopy(t, tr), 0, 2, 3) {
		t.Fatalf("partial read has %d collectives", part.Colls.Len())
	}
}

func TestReadRanksUnknownRank(t *testing.T) {
	dir, _ := writeFixture(t, 1)
	if _, _, err := ReadRanks(dir, []int32{9}); err == nil || !strings.Contains(err.Error(), "rank 9") {
		t.Fatalf("want an error naming rank 9, got %v", err)
	}
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(t *testing.T, dir string)
		want   []string
		is     error
	}{
		{"missing manifest", func(t *testing.T, dir string) { rm(t, filepath.Join(dir, ManifestFile)) }, []string{ManifestFile}, os.ErrNotExist},
		{"truncated events", func(t *testing.T, dir string) { truncate(t, EventsPath(dir, 2)) }, []string{"rank=00002.parquet"}, nil},
		{"truncated table", func(t *testing.T, dir string) { truncate(t, filepath.Join(dir, commsFile)) }, []string{commsFile}, nil},
		{"garbage events", func(t *testing.T, dir string) { garble(t, EventsPath(dir, 1)) }, []string{"rank=00001.parquet"}, nil},
		{"newer schema", func(t *testing.T, dir string) { setVersion(t, dir, SchemaVersion+1) }, []string{ManifestFile, "newer"}, ErrNewerSchema},
		{"newer file", func(t *testing.T, dir string) { newerFile(t, filepath.Join(dir, ranksFile)) }, []string{ranksFile, "newer"}, ErrNewerSchema},
		{"bad manifest", func(t *testing.T, dir string) { os.WriteFile(filepath.Join(dir, ManifestFile), []byte("{"), 0o644) }, []string{ManifestFile}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, _ := writeFixture(t, 1)
			c.break_(t, dir)
			_, _, err := Read(dir)
			if err == nil {
				t.Fatal("want an error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v is not %v", err, c.is)
			}
		})
	}
}

func rm(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}

func truncate(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
}

// garble overwrites the middle of a file (its pages), keeping its footer.
func garble(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 4; i < len(b)/2; i++ {
		b[i] = byte(i * 7)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func setVersion(t *testing.T, dir string, v int) {
	t.Helper()
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.SchemaVersion = v
	if err := writeManifest(dir, m); err != nil {
		t.Fatal(err)
	}
}

func TestWriteRefusesForeignDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, buildTrace(t, 1), Manifest{}); err == nil || !strings.Contains(err.Error(), "not overwriting") {
		t.Fatalf("Write into a foreign directory = %v", err)
	}
	if IsDataset(dir) {
		t.Fatal("a foreign directory is not a dataset")
	}
}

func TestWriteReplacesDataset(t *testing.T) {
	dir, _ := writeFixture(t, 2)
	small := &model.Trace{}
	small.AddRank(model.Rank{Rank: 0, LocalGPU: -1, Coord: model.UnknownCoord, Source: -1})
	small.AddEvent(model.NewEvent(0, model.KindCompute, small.Names.Intern("k"), 5, 1))
	if err := Write(dir, small, Manifest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(EventsPath(dir, 3)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("stale rank file left behind: %v", err)
	}
	got, _, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	diffDumps(t, dump(small), dump(got))
}

func TestWriteRejectsRaggedColumns(t *testing.T) {
	tr := buildTrace(t, 1)
	tr.Events.Dur = tr.Events.Dur[:3]
	if err := Write(t.TempDir(), tr, Manifest{}); err == nil || !strings.Contains(err.Error(), "different lengths") {
		t.Fatalf("want a column length error, got %v", err)
	}
}

func TestEmptyAndEventlessRanks(t *testing.T) {
	for _, withRanks := range []bool{false, true} {
		tr := &model.Trace{}
		if withRanks {
			tr.AddRank(model.Rank{Rank: 0, LocalGPU: -1, Coord: model.UnknownCoord, Source: -1})
			tr.AddRank(model.Rank{Rank: 5, LocalGPU: -1, Coord: model.UnknownCoord, Source: -1})
			tr.AddEvent(model.NewEvent(0, model.KindCompute, tr.Names.Intern("k"), 1, 2))
		}
		dir, got, m := writeRead(t, tr, Manifest{})
		diffDumps(t, dump(tr), dump(got))
		if withRanks && (!slices.Equal(m.Ranks, []int32{0, 5}) || !slices.Equal(m.RankEvents, []int64{1, 0})) {
			t.Fatalf("ranks %v counts %v", m.Ranks, m.RankEvents)
		}
		if withRanks {
			if r5, _, err := ReadRanks(dir, []int32{5}); err != nil || r5.Events.Len() != 0 {
				t.Fatalf("rank 5 has no events: %v, %v", r5, err)
			}
		}
	}
}

// TestOnlyTimedRanks: with Manifest.OnlyTimed only the ranks with events
// have an events file (and are in Ranks), and the trace reads back whole
// as it was, its event-less ranks in the rank table.
func TestOnlyTimedRanks(t *testing.T) {
	tr := &model.Trace{}
	for _, r := range []int32{0, 3, 5} {
		tr.AddRank(model.Rank{Rank: r, LocalGPU: -1, Coord: model.UnknownCoord, Source: -1})
	}
	tr.AddEvent(model.NewEvent(3, model.KindCompute, tr.Names.Intern("k"), 1, 2))
	for _, withEvents := range []bool{true, false} {
		if !withEvents {
			tr.Events = model.Events{}
		}
		dir, got, m := writeRead(t, tr, Manifest{Fast: true, OnlyTimed: true})
		diffDumps(t, dump(tr), dump(got))
		files, _ := filepath.Glob(filepath.Join(dir, eventsDir, "*"))
		if want := map[bool][]int32{true: {3}, false: {}}[withEvents]; !slices.Equal(m.Ranks, want) || len(files) != len(want) {
			t.Errorf("events %v: ranks %v and %d events files, want %v", withEvents, m.Ranks, len(files), want)
		}
	}
}

// newerFile rewrites a rank table with a newer schema version in its
// key-value metadata.
func newerFile(t *testing.T, path string) {
	t.Helper()
	opts := writeOptions(writer{tool: "test"}, ranksFile)
	if err := writeFile(path, []rankRow{{Rank: 0}}, opts, parquet.KeyValueMetadata(metaSchemaVersion, strconv.Itoa(SchemaVersion+1))); err != nil {
		t.Fatal(err)
	}
}

// TestManifestKeepsDeclaredWorld: the declared job sizes and the absent
// process-group members survive a write and a read, through the manifest.
func TestManifestKeepsDeclaredWorld(t *testing.T) {
	tr := buildTrace(t, 1)
	tr.DeclareWorld(8, model.WorldByKineto, 3)
	tr.DeclareWorld(2, model.WorldByNCCL, 1)
	tr.AddAbsent("tp", []int32{7, 5})
	dir, got, m := writeRead(t, tr, Manifest{})
	if !slices.Equal(got.World, tr.World) || !slices.Equal(m.World, tr.World) {
		t.Errorf("World read back %+v (manifest %+v), want %+v", got.World, m.World, tr.World)
	}
	if len(got.Absent) != 1 || got.Absent[0].Comm != "tp" || !slices.Equal(got.Absent[0].Ranks, []int32{5, 7}) {
		t.Errorf("Absent read back %+v", got.Absent)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ManifestFile))
	for _, k := range []string{`"world"`, `"by": "distributedInfo.world_size"`, `"absent_members"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("manifest lacks %s:\n%s", k, b)
		}
	}
	_, got, _ = writeRead(t, buildTrace(t, 1), Manifest{})
	if got.World != nil || got.Absent != nil {
		t.Errorf("a trace declaring nothing read back World %+v Absent %+v", got.World, got.Absent)
	}
}
