package nsys

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/nsysw"
)

// readErr reads paths and returns the error, failing when there is none.
func readErr(t *testing.T, paths ...string) error {
	t.Helper()
	_, err := Read(context.Background(), paths, source.Options{})
	if err == nil {
		t.Fatalf("reading %v: no error", paths)
	}
	return err
}

func wantFileError(t *testing.T, err error, path, substr string) {
	t.Helper()
	var fe *source.FileError
	if !errors.As(err, &fe) || fe.Path != path || !strings.Contains(err.Error(), substr) {
		t.Fatalf("want a FileError on %s mentioning %q, got %v", path, substr, err)
	}
}

func TestNotSQLite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "report_rank0.sqlite")
	os.WriteFile(p, []byte(`{"traceEvents": []}`+strings.Repeat(" ", 2000)), 0o644)
	wantFileError(t, readErr(t, p), p, "not a readable SQLite database")
}

func TestSQLiteWithoutKernelTable(t *testing.T) {
	p := sqliteFile(t, "other.sqlite", `CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT); INSERT INTO StringIds VALUES (0, 'x')`)
	wantFileError(t, readErr(t, p), p, "no CUPTI_ACTIVITY_KIND_KERNEL table")
}

func TestTruncatedSQLite(t *testing.T) {
	paths, err := nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(paths[0])
	for _, n := range []int{len(data) / 2, 4096 + 100, 50} {
		p := filepath.Join(t.TempDir(), "report_rank0.sqlite")
		os.WriteFile(p, data[:n], 0o644)
		err := readErr(t, p)
		var fe *source.FileError
		if !errors.As(err, &fe) || fe.Path != p {
			t.Fatalf("truncated to %d bytes: want a FileError naming the file, got %v", n, err)
		}
	}
}

func TestDuplicateRanks(t *testing.T) {
	paths, err := nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dup := filepath.Join(t.TempDir(), "copy_of_rank1.sqlite")
	data, _ := os.ReadFile(paths[1])
	os.WriteFile(dup, data, 0o644)
	err = readErr(t, append(paths, dup)...)
	var de *model.DuplicateRankError
	if !errors.As(err, &de) || de.Rank != 1 || !strings.Contains(err.Error(), dup) || !strings.Contains(err.Error(), paths[1]) {
		t.Fatalf("want a duplicate rank 1 error naming both files, got %v", err)
	}
}

func TestSniff(t *testing.T) {
	cases := map[string]bool{"SQLite format 3\x00\x10\x00": true, "NVIDIA Tegra Profiler Report 2025@1@1@110-1v0.": true,
		`{"traceEvents":[`: false, "": false, "SQLite format 2": false}
	for head, want := range cases {
		if got := Sniff("x", []byte(head)); got != want {
			t.Errorf("Sniff(%q) = %v, want %v", head, got, want)
		}
	}
}

func TestRankSources(t *testing.T) {
	cases := []struct {
		path string
		want int32
	}{{"dir/report_rank12.sqlite", 12}, {"report_3.sqlite", 3}, {"out-rank_7.nsys-rep", 7}, {"report1.sqlite", -1}, {"run.sqlite", -1}}
	for _, c := range cases {
		if got := fileRank(c.path); got != c.want {
			t.Errorf("fileRank(%q) = %d, want %d", c.path, got, c.want)
		}
	}
	opts := source.Options{RankMap: map[string]int32{"run.sqlite": 5}}
	if got := mapRank("/x/run.sqlite", opts); got != 5 {
		t.Errorf("mapRank by base name = %d", got)
	}
}

func TestRankMapWhenNothingElseNamesTheRank(t *testing.T) {
	// A real single-process export: no RANK in its environment, no rank in
	// its name; --rank-map decides.
	path := shared.Dir(t, "traces", "nsys", "NVIDIA-Fuser_report1.sqlite")
	tr, err := Read(context.Background(), []string{path}, source.Options{RankMap: map[string]int32{"NVIDIA-Fuser_report1.sqlite": 6}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Ranks) != 1 || tr.Ranks[0].Rank != 6 || tr.Events.Rank[0] != 6 {
		t.Fatalf("ranks %+v", tr.Ranks)
	}
}

func TestBadFileSkippedAmongGood(t *testing.T) {
	paths, err := nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "report_rank9.sqlite")
	os.WriteFile(bad, []byte("not a database at all"), 0o644)
	var warns []string
	tr, err := Read(context.Background(), append(paths, bad), source.Options{Warn: func(s string) { warns = append(warns, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Ranks) != 4 || !skipped(tr, "not a readable SQLite database") || len(warns) == 0 {
		t.Fatalf("ranks %d, skipped %+v, warnings %q", len(tr.Ranks), tr.Skipped, warns)
	}
}

func TestOldSchemaKernelTable(t *testing.T) {
	p := sqliteFile(t, "old.sqlite", `CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER, name INTEGER)`)
	wantFileError(t, readErr(t, p), p, "re-export with a newer nsys")
}
