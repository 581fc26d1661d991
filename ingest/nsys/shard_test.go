package nsys

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/shared"
)

// TestShardNeedsRanksFromEachReport: a shard cannot give a process the
// lowest free rank (that needs every report), so a report naming no rank
// fails the shard, saying what would name it; the --rank-map does.
func TestShardNeedsRanksFromEachReport(t *testing.T) {
	path := shared.Dir(t, "traces", "nsys", "NVIDIA-Fuser_report1.sqlite")
	_, err := ReadShard(context.Background(), []string{path}, 0, 1, source.Options{})
	if err == nil || !strings.Contains(err.Error(), "names no rank") || !strings.Contains(err.Error(), "--rank-map") {
		t.Fatalf("err = %v, want a refusal naming --rank-map", err)
	}
	sh, err := ReadShard(context.Background(), []string{path}, 0, 1, source.Options{RankMap: map[string]int32{"NVIDIA-Fuser_report1.sqlite": 6}})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Join([]*Shard{sh})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Read(context.Background(), []string{path}, source.Options{RankMap: map[string]int32{"NVIDIA-Fuser_report1.sqlite": 6}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Ranks) != 1 || tr.Ranks[0].Rank != 6 || tr.Events.Len() != want.Events.Len() || tr.Ranks[0].ClockBase != want.Ranks[0].ClockBase {
		t.Fatalf("joined %d events, ranks %+v; want %d events, ranks %+v", tr.Events.Len(), tr.Ranks, want.Events.Len(), want.Ranks)
	}
}

// TestJoinEqualsRead: the shards of a job joined in memory equal Read of
// all its files, column for column, skip records in order included: a
// real report beside its export (the export numbered by the --rank-map,
// with skip records of its own, before which Read lists the failed files),
// four generated per-rank exports and a file that is no database; in 1 to
// 7 shards (the report and its export fall in different shards).
func TestJoinEqualsRead(t *testing.T) {
	paths, err := nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "report_rank9.sqlite")
	os.WriteFile(bad, []byte("not a database at all"), 0o644)
	src := shared.Dir(t, "traces", "nsys")
	for _, name := range []string{"NVIDIA-Fuser_report1.nsys-rep", "NVIDIA-Fuser_report1.sqlite"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
		paths = append(paths, filepath.Join(dir, name))
	}
	n := len(paths) // the real report and export first (the export has skip records), the bad file second among the rest
	paths = append([]string{paths[n-2], paths[n-1], paths[0], bad}, paths[1:n-2]...)
	if len(want0(t, paths[1]).Skipped) == 0 {
		t.Fatal("the first export has no skip records: the test would not see where the failed files go")
	}
	t.Setenv("PATH", t.TempDir()) // no nsys
	opts := source.Options{RankMap: map[string]int32{"NVIDIA-Fuser_report1.sqlite": 6}}
	want, err := Read(context.Background(), paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 7; n++ {
		shards := make([]*Shard, n)
		for k := range n {
			if shards[k], err = ReadShard(context.Background(), paths, k, n, opts); err != nil {
				t.Fatalf("shard %d/%d: %v", k, n, err)
			}
		}
		got, err := Join(shards)
		if err != nil {
			t.Fatal(err)
		}
		sameTrace(t, n, got, want)
	}
}

func want0(t *testing.T, path string) *model.Trace {
	t.Helper()
	tr, err := Read(context.Background(), []string{path}, source.Options{RankMap: map[string]int32{filepath.Base(path): 6}})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func sameTrace(t *testing.T, n int, got, want *model.Trace) {
	t.Helper()
	for _, c := range []struct {
		what      string
		got, want any
	}{{"events", got.Events, want.Events}, {"ranks", got.Ranks, want.Ranks}, {"streams", got.Streams, want.Streams},
		{"comms", got.Comms, want.Comms}, {"collectives", got.Colls, want.Colls}, {"counters", got.Counters, want.Counters},
		{"names", got.Names.All(), want.Names.All()}, {"skipped", got.Skipped, want.Skipped}, {"sources", got.Sources, want.Sources},
		{"world", got.World, want.World}} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%d shards: the joined %s differ from Read's:\n got %+v\nwant %+v", n, c.what, c.got, c.want)
		}
	}
}
