package nsys

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/nsys/sqlitefile"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// TestRawSchemaEqualsSQLite: for every export the tests write (and the
// real one), the schema read raw (sqlite_master and the CREATE TABLE
// statements parsed) lists the tables, columns and layouts SQLite's
// pragma gives, and the row-count bounds MAX(rowid) gives; every
// statement parses, so a whole Read never opens SQLite.
func TestRawSchemaEqualsSQLite(t *testing.T) {
	exports := testExports(t)
	for name, paths := range exports {
		for _, p := range paths {
			sameSchema(t, name+" "+filepath.Base(p), p)
		}
		before := sqliteOpens.Load()
		if _, err := Read(context.Background(), paths, source.Options{}); err != nil {
			t.Fatal(err)
		}
		if n := sqliteOpens.Load() - before; n != 0 {
			t.Errorf("%s: SQLite opened %d times", name, n)
		}
	}
	if len(exports) < 8 {
		t.Fatalf("%d exports", len(exports))
	}
}

func sameSchema(t *testing.T, name, p string) {
	t.Helper()
	raw, err := openDB(p)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.close()
	useRaw = false
	sql, err := openDB(p)
	useRaw = true
	if err != nil {
		t.Fatal(err)
	}
	defer sql.close()
	for table := range raw.tables {
		raw.has(table) // parses every statement
	}
	if raw.conn != nil || len(raw.stmts) != 0 {
		t.Fatalf("%s: the raw schema fell back to SQLite", name)
	}
	if !maps.Equal(raw.tables, sql.tables) || !maps.EqualFunc(raw.cols, sql.cols, maps.Equal) {
		t.Fatalf("%s: tables or columns differ:\n raw %v\n sql %v", name, raw.cols, sql.cols)
	}
	for table, l := range sql.layout {
		l.checkSQL()
		if !reflect.DeepEqual(raw.layout[table], l) {
			t.Errorf("%s %s: layout\n raw %+v\n sql %+v", name, table, raw.layout[table], l)
		}
	}
	var have []string
	for _, table := range eventTables {
		if raw.has(table) {
			have = append(have, table)
		}
	}
	if got, want := raw.maxRowids(have), sql.sqlMaxRowids(have); !slices.Equal(got, want) || len(have) > 0 && !slices.ContainsFunc(got, func(n int64) bool { return n > 0 }) {
		t.Errorf("%s: bounds %v, MAX(rowid) %v", name, got, want)
	}
}

// TestRawSchemaFallsBack: a statement the parser leaves alone hands the
// schema to SQLite, with the same result; so does a file whose header the
// raw reader does not read.
func TestRawSchemaFallsBack(t *testing.T) {
	p := sqliteFile(t, "fk.sqlite", `PRAGMA foreign_keys=OFF; CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL); INSERT INTO StringIds VALUES (1, 'k');
CREATE TABLE META_DATA_EXPORT (name TEXT REFERENCES StringIds(value), value TEXT); INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', '1.2');`)
	d, err := openDB(p)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	if !d.has("StringIds", "id", "value") || d.conn != nil {
		t.Fatal("StringIds not read raw")
	}
	if !d.has("META_DATA_EXPORT", "name", "value") || d.conn == nil || d.stmts != nil {
		t.Fatal("REFERENCES did not hand the schema to SQLite")
	}
	var m meta
	if err := readExportMeta(d, &m); err != nil || m.version != "1.2" {
		t.Fatalf("version %q, %v", m.version, err)
	}
	if s, err := readStrings(d); err != nil || s.get(1) != "k" {
		t.Fatalf("strings %v, %v", s, err)
	}
}

// TestMetaFiltersEqualSQL: the filters the metadata queries had in SQL,
// now applied to the rows read raw, select what SQLite selected: LIKE's
// case folding, wildcard and NUL, the = 'Hostname' of a text column,
// LIMIT 1.
func TestMetaFiltersEqualSQL(t *testing.T) {
	p := sqliteFile(t, "meta.sqlite", `CREATE TABLE META_DATA_CAPTURE (name TEXT, value TEXT);
INSERT INTO META_DATA_CAPTURE (name) VALUES ('a:ENVIRONMENT_VARIABLE'), ('a:environment_variable'), ('a:ENVIRONMENTxVARIABLE'),
 (':ENVIRONMENT_VARIABLE'), ('ENVIRONMENT_VARIABLE'), ('a:ENVIRONMENT__VARIABLE'), ('a:ENVIRONMENT_VARIABLEx'), (NULL), (42),
 ('a:ENVIRONMENTéVARIABLE'), (CAST(x'613a454e5649524f4e4d454e54c3a9805641524941424c45' AS TEXT)), (CAST(x'3a454e5649524f4e4d454e5480805641524941424c45' AS TEXT)),
 (CAST(x'3a454e5649524f4e4d454e54805641524941424c45' AS TEXT)), (CAST(x'3a454e5649524f4e4d454e545f5641524941424c45007a' AS TEXT)),
 (x'3a454e5649524f4e4d454e545f5641524941424c45'), ('x:ENVİRONMENT_VARIABLE');
CREATE TABLE TARGET_INFO_SYSTEM_ENV (name TEXT, value TEXT);
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (x'486f73746e616d65', 'blob'), ('hostname', 'lower'), ('Hostname', 'first'), ('Hostname', 'second');
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER); INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (7), (5);`)
	d, err := openDB(p)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	var want, got []bool
	if err := d.each(`SELECT name LIKE '%:ENVIRONMENT_VARIABLE' IS 1 FROM META_DATA_CAPTURE`, func(s row) { want = append(want, s.ColumnInt64(0) == 1) }); err != nil {
		t.Fatal(err)
	}
	if err := d.readTable("META_DATA_CAPTURE", []string{"name"}, func(s row) {
		got = append(got, envVarRow(s))
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || slices.Index(want, true) < 0 || slices.Index(want, false) < 0 {
		t.Errorf("LIKE: got %v, SQLite %v", got, want)
	}
	var m meta
	if err := readHost(d, &m); err != nil || m.host != "first" {
		t.Errorf("host %q, %v", m.host, err)
	}
	if err := readSession(d, &m); err != nil || m.sessionNs != 7 {
		t.Errorf("session %d, %v", m.sessionNs, err)
	}
}

// TestParseCreateOnce holds parseCreate's second answer for a statement
// equal to ParseCreateTable's, errors included.
func TestParseCreateOnce(t *testing.T) {
	for _, sql := range []string{`CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT DEFAULT 'x')`, `CREATE TABLE u (a REFERENCES t)`, `not sql`} {
		want, werr := sqlitefile.ParseCreateTable(sql)
		for range 2 {
			got, err := parseCreate(sql)
			if !reflect.DeepEqual(got, want) || fmt.Sprint(err) != fmt.Sprint(werr) {
				t.Fatalf("%s: %+v, %v; want %+v, %v", sql, got, err, want, werr)
			}
		}
	}
}
