package nsys

import (
	"fmt"
	"github.com/tpptrace/tpptrace/ingest/source"
	"net/url"
	"os"
	"path/filepath"

	"github.com/ncruces/go-sqlite3"
)

// db is one open export, with its table and column lists probed once.
type db struct {
	conn   *sqlite3.Conn
	tables map[string]bool
	cols   map[string]map[string]bool
	maxMem int64 // the load's memory budget (--max-memory), 0 none
}

// memEvery is how many rows are read between checks of the memory budget.
var memEvery = 4096

// openDB opens an export read-only and immutable (no journal, no locks).
// An export with a non-empty write-ahead log beside it is refused: immutable
// reading would silently ignore the rows still in the log.
func openDB(path string) (*db, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if err := checkNoWAL(path); err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: "mode=ro&immutable=1"}
	conn, err := sqlite3.OpenFlags(u.String(), sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	d := &db{conn: conn, cols: map[string]map[string]bool{}}
	if d.tables, err = d.listTables(); err != nil {
		conn.Close()
		return nil, err
	}
	return d, nil
}

func (d *db) close() { d.conn.Close() }

// listTables reads every table's columns in one statement: an export has
// dozens of tables, and one pragma_table_info statement per table probed
// was a good part of reading a small per-rank export.
func (d *db) listTables() (map[string]bool, error) {
	m := map[string]bool{}
	err := d.each(`SELECT m.name, p.name FROM sqlite_master AS m LEFT JOIN pragma_table_info(m.name) AS p WHERE m.type='table' AND m.sql NOT LIKE 'CREATE VIRTUAL%'`, func(s *sqlite3.Stmt) {
		t := s.ColumnText(0)
		m[t] = true
		if d.cols[t] == nil {
			d.cols[t] = map[string]bool{}
		}
		if s.ColumnType(1) != sqlite3.NULL {
			d.cols[t][s.ColumnText(1)] = true
		}
	})
	if err != nil {
		return nil, fmt.Errorf("not a readable SQLite database: %w", err)
	}
	return m, nil
}

// has reports whether table exists and, when given, has every column.
func (d *db) has(table string, cols ...string) bool {
	if !d.tables[table] {
		return false
	}
	for _, x := range cols {
		if !d.cols[table][x] {
			return false
		}
	}
	return true
}

// each runs query and calls row for every result row, checking the memory
// budget every memEvery rows.
func (d *db) each(query string, row func(*sqlite3.Stmt)) error { return d.scan(query, row, d.maxMem) }

// scan is each with the budget maxMem (0: none, for the schema's own
// tables).
func (d *db) scan(query string, row func(*sqlite3.Stmt), maxMem int64) error {
	st, _, err := d.conn.Prepare(query)
	if err != nil {
		return err
	}
	defer st.Close()
	for n := 1; st.Step(); n++ {
		row(st)
		if n%memEvery == 0 {
			if err := source.CheckMemory(maxMem); err != nil {
				return err
			}
		}
	}
	return st.Err()
}

// nullInt returns column i, or def when it is NULL.
func nullInt(s *sqlite3.Stmt, i int, def int64) int64 {
	if s.ColumnType(i) == sqlite3.NULL {
		return def
	}
	return s.ColumnInt64(i)
}

// checkNoWAL refuses an export whose -wal file holds data.
func checkNoWAL(path string) error {
	st, err := os.Stat(path + "-wal")
	if err != nil || st.Size() == 0 {
		return nil
	}
	return fmt.Errorf("a write-ahead log %s-wal (%d bytes) holds rows not yet in the database, which a read-only reader would miss: "+
		"checkpoint it first (sqlite3 %s 'PRAGMA wal_checkpoint(TRUNCATE)') or re-export", filepath.Base(path), st.Size(), shellQuote(path))
}
