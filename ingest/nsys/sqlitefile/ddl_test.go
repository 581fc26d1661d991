package sqlitefile

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// ddlSeeds are CREATE TABLE statements the parser reads: nsys's style
// (comments, NOT NULL, INTEGER PRIMARY KEY), and the rest of what it knows.
var ddlSeeds = []string{
	`CREATE TABLE StringIds (
    -- Consolidation of repetitive string values.

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    value                       TEXT      NOT NULL                     -- String value.
)`,
	`CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
    utcTime                     TEXT,                                  -- Start of the capture in UTC.
    localTime                   TEXT                                   -- Start of the capture in local time of target.
)`,
	`CREATE TABLE t (a integer primary key asc on conflict replace autoincrement, "b c" VarChar ( 10, -2 ), [d] /* x */ REAL DEFAULT -1.5e3, ` + "`e``f`" + ` BLOB DEFAULT x'00ff')`,
	`CREATE TABLE IF NOT EXISTS u ('a' TEXT COLLATE NOCASE UNIQUE NULL CHECK (length(a) > (1)), b DEFAULT (1 + 2), c NUMERIC CONSTRAINT k NOT NULL ON CONFLICT FAIL, CONSTRAINT pk PRIMARY KEY (c DESC, a COLLATE BINARY) UNIQUE (b) CHECK (b <> 0))`,
	`CREATE TABLE w (id INTEGER PRIMARY KEY DESC, v) WITHOUT ROWID`,
	`CREATE TABLE x (a unsigned big int, b DOUBLE PRECISION, c, "d""q" CURRENT_TIME DEFAULT CURRENT_TIME)`,
	`CREATE TABLE y (k TEXT, v, PRIMARY KEY (k)) WITHOUT ROWID`,
}

// ddlRefused are statements the parser leaves to SQLite.
var ddlRefused = []string{
	`CREATE TABLE r (a INTEGER REFERENCES s(id))`,
	`CREATE TABLE r (a INTEGER, FOREIGN KEY (a) REFERENCES s(id))`,
	`CREATE TABLE r (a INTEGER, b AS (a + 1))`,
	`CREATE TABLE r (a INTEGER, b INTEGER GENERATED ALWAYS AS (a + 1) STORED)`,
	`CREATE TABLE r (a INTEGER) STRICT`,
	`CREATE TABLE main.r (a INTEGER)`,
	`CREATE TABLE r AS SELECT 1 AS a`,
	`CREATE TABLE r (a INTEGER`,
	`CREATE TABLE r (a INTEGER, a TEXT)`,
	`CREATE TABLE r (a INTEGER PRIMARY KEY, b, PRIMARY KEY (b))`,
	`CREATE VIRTUAL TABLE r USING fts5(a)`,
}

// pragmaDef is table's definition as SQLite's pragmas give it.
func pragmaDef(t testing.TB, conn *sqlite3.Conn, table string) TableDef {
	t.Helper()
	var d TableDef
	st, _, err := conn.Prepare(`SELECT name, type, pk, dflt_value IS NOT NULL, hidden FROM pragma_table_xinfo(?) ORDER BY cid`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.BindText(1, table)
	for st.Step() {
		if st.ColumnInt(4) != 0 {
			t.Fatalf("%s: hidden column %s", table, st.ColumnText(0))
		}
		d.Columns = append(d.Columns, Column{Name: st.ColumnText(0), Type: st.ColumnText(1), PK: st.ColumnInt(2), HasDefault: st.ColumnBool(3)})
	}
	wr, _, err := conn.Prepare(`SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?`)
	if err != nil {
		t.Fatal(err)
	}
	defer wr.Close()
	wr.BindText(1, table)
	if !wr.Step() {
		t.Fatalf("%s: not in pragma_table_list: %v", table, wr.Err())
	}
	d.WithoutRowid = wr.ColumnBool(0)
	return d
}

// samePragma compares the parse of sql with SQLite's view of table, less
// PKDesc, which no pragma shows.
func samePragma(t testing.TB, conn *sqlite3.Conn, table, sql string) {
	t.Helper()
	got, err := ParseCreateTable(sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	got.PKDesc = false
	if want := pragmaDef(t, conn, table); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n parsed %+v\n pragma %+v", sql, got, want)
	}
}

// masterSQL is every table's statement (SQLite's own tables left out) as sqlite_master holds it.
func masterSQL(t testing.TB, conn *sqlite3.Conn) map[string]string {
	t.Helper()
	st, _, err := conn.Prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out := map[string]string{}
	for st.Step() {
		if n := st.ColumnText(0); !strings.HasPrefix(n, "sqlite_") { // sqlite_sequence, of AUTOINCREMENT
			out[n] = st.ColumnText(1)
		}
	}
	return out
}

// TestParseCreateTableEqualsPragma: each seed, as written and as
// sqlite_master keeps it, parses to the columns, types, primary key,
// defaults and WITHOUT ROWID SQLite's pragmas give; the others are
// refused with ErrUnsupported.
func TestParseCreateTableEqualsPragma(t *testing.T) {
	conn, err := sqlite3.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, sql := range ddlSeeds {
		if err := conn.Exec(sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	stored := masterSQL(t, conn)
	if len(stored) != len(ddlSeeds) {
		t.Fatalf("%d tables", len(stored))
	}
	for table, sql := range stored {
		samePragma(t, conn, table, sql)
	}
	for i, sql := range ddlSeeds {
		name := []string{"StringIds", "TARGET_INFO_SESSION_START_TIME", "t", "u", "w", "x", "y"}[i]
		samePragma(t, conn, name, sql)
	}
	for _, sql := range ddlRefused {
		if _, err := ParseCreateTable(sql); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", sql, err)
		}
	}
	if d, _ := ParseCreateTable(ddlSeeds[4]); !d.PKDesc || !d.WithoutRowid {
		t.Errorf("w: %+v, want PKDesc and WithoutRowid", d)
	}
}

// FuzzCreateTable: the parser never panics, and whatever statement it
// accepts that SQLite accepts too reads as SQLite's pragmas say, as
// written and as sqlite_master keeps it.
func FuzzCreateTable(f *testing.F) {
	for _, s := range append(ddlSeeds, ddlRefused...) {
		f.Add(s)
	}
	var conn *sqlite3.Conn // one per fuzzing process, each statement rolled back
	f.Cleanup(func() {
		if conn != nil {
			conn.Close()
		}
	})
	f.Fuzz(func(t *testing.T, sql string) {
		d, err := ParseCreateTable(sql)
		if err != nil {
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error %v does not wrap ErrUnsupported", err)
			}
			return
		}
		if len(d.Columns) == 0 {
			t.Fatal("accepted without columns")
		}
		if conn == nil {
			if conn, err = sqlite3.Open(":memory:"); err != nil {
				t.Fatal(err)
			}
		}
		compareInSQLite(t, conn, sql)
	})
}

// compareInSQLite creates the table of sql inside a transaction rolled
// back after, and compares.
func compareInSQLite(t *testing.T, conn *sqlite3.Conn, sql string) {
	if err := conn.Exec("BEGIN"); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := conn.Exec("ROLLBACK"); err != nil {
			t.Fatal(err)
		}
	}()
	if strings.ContainsRune(sql, 0) || conn.Exec(sql) != nil {
		return // SQLite refuses it (or reads it only to the NUL): not a statement a file holds
	}
	for table, stored := range masterSQL(t, conn) {
		samePragma(t, conn, table, sql)
		samePragma(t, conn, table, stored)
	}
}

// TestMasterAndLastRowid: Master gives sqlite_master's rows, and LastRowid
// MAX(rowid), on an empty table, one leaf, and a tree of several levels.
func TestMasterAndLastRowid(t *testing.T) {
	p := makeDB(t, 512, `CREATE TABLE e (a); CREATE TABLE one (a); INSERT INTO one VALUES (1), (2);
CREATE TABLE deep (a TEXT); WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM k WHERE i < 3000) INSERT INTO deep SELECT printf('%.*c', i % 300, 'x') FROM k;
DELETE FROM deep WHERE rowid > 2990; CREATE INDEX di ON deep(a); CREATE VIEW v AS SELECT 1;`)
	conn, err := sqlite3.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sf, err := Open(readerAt(b), int64(len(b)), p)
	if err != nil {
		t.Fatal(err)
	}
	s := NewScanner(sf)
	rows, err := s.Master()
	if err != nil {
		t.Fatal(err)
	}
	want := sqlRows(t, conn, "sqlite_master", []string{"type", "name", "tbl_name", "rootpage", "sql"})
	if len(rows) != len(want) || len(rows) != 5 {
		t.Fatalf("%d rows, SQLite %d", len(rows), len(want))
	}
	for i, r := range rows {
		w := want[i]
		if r.Type != w[0].text || r.Name != w[1].text || r.TblName != w[2].text || r.Root != w[3].i || r.SQL != w[4].text || r.HasSQL != (w[4].typ != int(Null)) {
			t.Errorf("row %d: %+v, SQLite %v", i, r, w)
		}
		if r.Type == "table" {
			lastRowid(t, s, conn, r)
		}
	}
}

func lastRowid(t *testing.T, s *Scanner, conn *sqlite3.Conn, r MasterRow) {
	t.Helper()
	got, ok, err := s.LastRowid(uint32(r.Root))
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := conn.Prepare(`SELECT MAX(rowid), MAX(rowid) IS NOT NULL FROM ` + r.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.Step()
	if got != st.ColumnInt64(0) || ok != st.ColumnBool(1) {
		t.Errorf("%s: LastRowid %d %v, SQLite %d %v", r.Name, got, ok, st.ColumnInt64(0), st.ColumnBool(1))
	}
	if r.Name == "deep" && (depth(t, s.f, uint32(r.Root)) < 3 || got != 2990) {
		t.Errorf("deep: depth %d, last %d", depth(t, s.f, uint32(r.Root)), got)
	}
}
