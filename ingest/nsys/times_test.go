package nsys

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/nsysw"
)

// corrupt runs sql on one export.
func corrupt(t *testing.T, path, sql string) {
	t.Helper()
	conn, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Exec(sql); err != nil {
		t.Fatal(err)
	}
}

// readSkipping reads every export and wants the corrupted one skipped with
// a record naming it, and the others' times left sane.
func readSkipping(t *testing.T, paths []string, bad, reason string) {
	t.Helper()
	tr, err := Read(context.Background(), paths, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, s := range tr.Skipped {
		found = found || s.Source == bad && strings.Contains(s.Reason, reason)
	}
	if !found {
		t.Fatalf("no skip record for %s mentioning %q: %+v", bad, reason, tr.Skipped)
	}
	if len(tr.Ranks) != len(paths)-1 {
		t.Fatalf("%d ranks kept, want %d", len(tr.Ranks), len(paths)-1)
	}
	assertSaneTimes(t, tr)
}

// assertSaneTimes wants every event within a day of the trace's start: the
// test job lasts well under a second.
func assertSaneTimes(t *testing.T, tr *model.Trace) {
	t.Helper()
	const day = 86400e9
	for i := 0; i < tr.Events.Len(); i++ {
		if s := tr.Events.Start[i]; s < -day || s > day {
			t.Fatalf("event %d starts at %d ns: the clock wrapped", i, s)
		}
	}
}

func TestNegativeSessionStartIsSkippedPerFile(t *testing.T) {
	paths, err := nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	corrupt(t, paths[2], `UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = -9000000000000000000`)
	readSkipping(t, paths, paths[2], "TARGET_INFO_SESSION_START_TIME")
}

func TestOverflowingKernelTimeIsSkippedPerFile(t *testing.T) {
	paths, err := nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	corrupt(t, paths[1], `UPDATE `+kernelTable+` SET start = 9223372036854775000, end = 9223372036854775807 WHERE rowid = 1`)
	readSkipping(t, paths, paths[1], "overflows")
}

func TestSpanLimits(t *testing.T) {
	b := &builder{base: 1_700_000_000_000_000_000, skipRows: map[string]int64{}}
	if at, dur := b.span(5, 3); at != b.base+5 || dur != 0 || b.badTime != nil || len(b.skipRows) != 1 {
		t.Fatalf("a negative duration: got %d %d %v %v, want clamped to 0 and counted", at, dur, b.badTime, b.skipRows)
	}
	for _, c := range [][2]int64{{math.MaxInt64, math.MaxInt64}, {math.MinInt64, 0}, {0, math.MaxInt64}, {math.MinInt64, math.MaxInt64}} {
		b.badTime = nil
		if b.span(c[0], c[1]); b.badTime == nil {
			t.Errorf("start %d end %d: accepted", c[0], c[1])
		}
	}
}

func TestExportCommandIsShellQuoted(t *testing.T) {
	cases := map[string]string{
		"run/report_rank0.nsys-rep":     "nsys export --type sqlite --output run/report_rank0.nsys-rep.sqlite run/report_rank0.nsys-rep",
		"my run/it's $HOME;rm.nsys-rep": `nsys export --type sqlite --output 'my run/it'\''s $HOME;rm.nsys-rep.sqlite' 'my run/it'\''s $HOME;rm.nsys-rep'`,
	}
	for in, want := range cases {
		if got := ExportCommand(in); got != want {
			t.Errorf("ExportCommand(%q) =\n %s\nwant\n %s", in, got, want)
		}
	}
}

func TestExportWithAWriteAheadLogIsRefusedPerFile(t *testing.T) {
	paths, err := nsysw.Write(t.TempDir(), tinyJob(), nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths[3]+"-wal", make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	readSkipping(t, paths, paths[3], "write-ahead log")
}
