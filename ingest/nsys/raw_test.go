package nsys

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/ncruces/go-sqlite3"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/shared"
)

// testExports writes the exports the package's tests read: the tiny job in
// every writer option, the default sample in both dialects, one with a
// memory table; and the real export when ../shared has it.
func testExports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	tiny := tinyJob()
	for name, o := range map[string]nsysw.Options{
		"tiny": {}, "tiny-pernode": {PerNode: true}, "tiny-nonvtx": {NoNVTX: true}, "tiny-nocommid": {NoCommID: true},
		"tiny-real": {Dialect: nsysw.DialectReal}, "tiny-real-noinit": {Dialect: nsysw.DialectReal, NoCommInit: true},
	} {
		paths, err := nsysw.Write(filepath.Join(t.TempDir(), name), tiny, o)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = paths
	}
	cfg, err := samples.Lookup("default")
	if err != nil {
		t.Fatal(err)
	}
	job, err := samples.Simulate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for name, o := range map[string]nsysw.Options{"default": {}, "default-real": {Dialect: nsysw.DialectReal}} {
		if out[name], err = nsysw.Write(filepath.Join(t.TempDir(), name), job.Trace, o); err != nil {
			t.Fatal(err)
		}
	}
	addMemRows(t, out["tiny"][0], 1<<48|4000<<24)
	if dir := realExportDir(t); dir != "" {
		out["real"] = []string{filepath.Join(dir, "NVIDIA-Fuser_report1.sqlite")}
	}
	return out
}

// realExportDir is ../shared/traces/nsys, "" when absent (shared.Dir
// would skip the whole test).
func realExportDir(t *testing.T) string {
	var dir string
	t.Run("shared", func(t *testing.T) { dir = shared.Dir(t, "traces", "nsys") })
	if _, err := os.Stat(filepath.Join(dir, "NVIDIA-Fuser_report1.sqlite")); dir == "" || err != nil {
		return ""
	}
	return dir
}

// cell is one value as a row gives it.
type cell struct {
	typ  sqlite3.Datatype
	i    int64
	text string
	or   int64 // nullInt's
}

// tableColumns are table's columns in record order.
func tableColumns(l *tableLayout) []string {
	cols := make([]string, len(l.fields))
	for c, f := range l.fields {
		cols[f] = c
	}
	return cols
}

// readCells reads cols of table through readTable.
func readCells(t *testing.T, d *db, table string, cols []string) [][]cell {
	t.Helper()
	var out [][]cell
	err := d.readTable(table, cols, func(s row) {
		r := make([]cell, len(cols))
		for i := range r {
			r[i] = cell{s.ColumnType(i), s.ColumnInt64(i), s.ColumnText(i), nullInt(s, i, -7)}
		}
		out = append(out, r)
	})
	if err != nil {
		t.Fatalf("%s: %v", table, err)
	}
	return out
}

// TestRawScanEqualsSQLite: for every export the tests write (and the real
// one), the raw reader yields exactly SQLite's rows of every table it
// reads, every column, in the same order; and a whole Read is the same
// through either; with the files read whole or page by page.
func TestRawScanEqualsSQLite(t *testing.T) {
	exports := testExports(t)
	defer func(w int64) { wholeFile = w }(wholeFile)
	for _, wholeFile = range []int64{wholeFile, 0} { // files read whole, and page by page
		rawEqualsSQLite(t, exports)
	}
}

func rawEqualsSQLite(t *testing.T, exports map[string][]string) {
	for name, paths := range exports {
		for _, p := range paths {
			d, err := openDB(p)
			if err != nil {
				t.Fatal(err)
			}
			if d.raw == nil {
				t.Fatalf("%s: the raw reader refused %s", name, p)
			}
			for table := range rawRead {
				if !d.has(table) {
					continue
				}
				cols := append(tableColumns(d.layoutOf(table)), "")
				if _, ok := d.layoutOf(table).table(cols); !ok {
					t.Fatalf("%s %s: %s left to SQLite", name, filepath.Base(p), table)
				}
				raw := readCells(t, d, table, cols)
				useRaw = false
				sql := readCells(t, d, table, cols)
				useRaw = true
				if len(raw) != len(sql) {
					t.Fatalf("%s %s %s: %d rows raw, %d through SQLite", name, filepath.Base(p), table, len(raw), len(sql))
				}
				for i := range sql {
					if !slices.Equal(raw[i], sql[i]) {
						t.Fatalf("%s %s %s row %d:\n raw %v\n sql %v", name, filepath.Base(p), table, i, raw[i], sql[i])
					}
				}
			}
			d.close()
		}
		sameRead(t, name, paths)
	}
	if len(exports) < 8 {
		t.Fatalf("%d exports", len(exports))
	}
}

// sameRead checks that Read gives the same trace through either reader
// (every exported field: Merge's mark differs from read to read).
func sameRead(t *testing.T, name string, paths []string) {
	t.Helper()
	read := func() reflect.Value {
		tr, err := Read(context.Background(), paths, source.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return reflect.ValueOf(*tr)
	}
	raw := read()
	useRaw = false
	sql := read()
	useRaw = true
	for i := range raw.NumField() {
		if f := raw.Type().Field(i); f.IsExported() && !reflect.DeepEqual(raw.Field(i).Interface(), sql.Field(i).Interface()) {
			t.Errorf("%s: Trace.%s differs through the raw reader", name, f.Name)
		}
	}
}

// TestRawFallsBackToSQLite: tables whose layout the raw reader does not
// know (a WITHOUT ROWID table, INTEGER PRIMARY KEY DESC, a generated
// column, a column added with a default) are read through SQLite, with
// the same rows.
func TestRawFallsBackToSQLite(t *testing.T) {
	p := sqliteFile(t, "odd.sqlite", `CREATE TABLE plain (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO plain VALUES (3, 'c'), (1, 'a');
CREATE TABLE wr (id INTEGER PRIMARY KEY, v TEXT) WITHOUT ROWID; INSERT INTO wr VALUES (3, 'c'), (1, 'a');
CREATE TABLE desck (id INTEGER PRIMARY KEY DESC, v TEXT); INSERT INTO desck VALUES (3, 'c'), (1, 'a');
CREATE TABLE gen (id INTEGER, v TEXT, w TEXT AS (v || v)); INSERT INTO gen (id, v) VALUES (3, 'c'), (1, 'a');
CREATE TABLE dflt (id INTEGER, v TEXT); INSERT INTO dflt VALUES (3, 'c'); ALTER TABLE dflt ADD COLUMN n INTEGER DEFAULT 7; INSERT INTO dflt VALUES (1, 'a', 2);`)
	for _, table := range []string{"plain", "wr", "desck", "gen", "dflt"} {
		rawRead[table] = true
		defer delete(rawRead, table)
	}
	d, err := openDB(p)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	for table, raw := range map[string]bool{"plain": true, "wr": false, "desck": false, "gen": false, "dflt": false} {
		cols := []string{"id", "v"}
		if table == "dflt" {
			cols = append(cols, "n")
		}
		if _, ok := d.layoutOf(table).table(cols); ok != raw {
			t.Errorf("%s: raw reader used %v, want %v", table, ok, raw)
		}
		got := readCells(t, d, table, cols)
		useRaw = false
		want := readCells(t, d, table, cols)
		useRaw = true
		if !reflect.DeepEqual(got, want) || len(got) != 2 {
			t.Errorf("%s: rows %v, SQLite %v", table, got, want)
		}
	}
}
