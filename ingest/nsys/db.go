package nsys

import (
	"fmt"
	"github.com/tpptrace/tpptrace/ingest/source"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/ncruces/go-sqlite3"
	"github.com/tpptrace/tpptrace/ingest/nsys/sqlitefile"
)

// db is one open export, with its table and column lists probed once.
type db struct {
	path   string        // the absolute path
	conn   *sqlite3.Conn // nil until a query needs SQLite
	tables map[string]bool
	cols   map[string]map[string]bool
	layout map[string]*tableLayout // how the raw reader reads each table
	// stmts are the tables of a schema read raw whose CREATE statement is
	// not parsed yet (parsed when first asked about).
	stmts  map[string]sqlitefile.MasterRow
	raw    *rawFile // nil: every table read through SQLite
	maxMem int64    // the load's memory budget (--max-memory), 0 none
}

// memEvery is how many rows are read between checks of the memory budget.
var memEvery = 4096

// openDB opens an export for reading. The schema is read by the raw reader
// from sqlite_master when it can; else SQLite opens the file read-only and
// immutable (no journal, no locks) and lists it. An export with a
// non-empty write-ahead log beside it is refused: immutable reading would
// silently ignore the rows still in the log.
func openDB(path string) (*db, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if err := checkNoWAL(path); err != nil {
		return nil, err
	}
	d := &db{path: abs}
	if d.raw = openRaw(path); d.raw != nil && useRaw && d.rawSchema() == nil {
		return d, nil
	}
	if err := d.sqliteSchema(); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// open opens SQLite on the export, once.
func (d *db) open() error {
	if d.conn != nil {
		return nil
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(d.path), RawQuery: "mode=ro&immutable=1"}
	conn, err := sqlite3.OpenFlags(u.String(), sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		return fmt.Errorf("open sqlite: %w", err)
	}
	d.conn = conn
	sqliteOpens.Add(1)
	return nil
}

// sqliteOpens counts the exports SQLite opened (tests check that the raw
// reader leaves it closed).
var sqliteOpens atomic.Int64

// sqliteSchema lists the tables and columns through SQLite, replacing
// what the raw reader had listed.
func (d *db) sqliteSchema() error {
	if err := d.open(); err != nil {
		return err
	}
	d.cols, d.layout, d.stmts = map[string]map[string]bool{}, map[string]*tableLayout{}, nil
	var err error
	d.tables, err = d.listTables()
	return err
}

func (d *db) close() {
	d.raw.close()
	if d.conn != nil {
		d.conn.Close()
	}
}

// listTables reads every table's columns in one statement: an export has
// dozens of tables, and one pragma_table_info statement per table probed
// was a good part of reading a small per-rank export. The same statement
// gives the raw reader each table's root page and column layout.
func (d *db) listTables() (map[string]bool, error) {
	m := map[string]bool{}
	err := d.scan(`SELECT m.name, m.rootpage, m.sql, p.cid, p.name, p.type, p.pk, p.dflt_value, p.hidden
FROM sqlite_master AS m LEFT JOIN pragma_table_xinfo(m.name) AS p WHERE m.type='table' AND m.sql NOT LIKE 'CREATE VIRTUAL%'`, func(s row) {
		t := s.ColumnText(0)
		m[t] = true
		if d.cols[t] == nil {
			d.cols[t] = map[string]bool{}
			if rawRead[t] {
				d.layout[t] = newLayout(s.ColumnInt64(1), s.ColumnText(2))
			}
		}
		if s.ColumnType(3) != sqlite3.NULL {
			d.addColumn(t, s)
		}
	}, 0)
	if err != nil {
		return nil, fmt.Errorf("not a readable SQLite database: %w", err)
	}
	return m, nil
}

// addColumn records a pragma_table_xinfo row (columns 3 to 8 of s).
func (d *db) addColumn(t string, s row) {
	name, hidden := s.ColumnText(4), s.ColumnInt64(8) != 0
	if !hidden {
		d.cols[t][name] = true // as pragma_table_info lists them
	}
	if l := d.layout[t]; l != nil {
		l.add(int(s.ColumnInt64(3)), name, s.ColumnText(5), s.ColumnInt64(6), s.ColumnType(7) != sqlite3.NULL, hidden)
	}
}

// has reports whether table exists and, when given, has every column.
func (d *db) has(table string, cols ...string) bool {
	if !d.tables[table] {
		return false
	}
	d.parse(table)
	for _, x := range cols {
		if !d.cols[table][x] {
			return false
		}
	}
	return true
}

// each runs query and calls row for every result row, checking the memory
// budget every memEvery rows.
func (d *db) each(query string, fn func(row)) error { return d.scan(query, fn, d.maxMem) }

// scan is each with the budget maxMem (0: none, for the schema's own
// tables).
func (d *db) scan(query string, fn func(row), maxMem int64) error {
	if err := d.open(); err != nil {
		return err
	}
	st, _, err := d.conn.Prepare(query)
	if err != nil {
		return err
	}
	defer st.Close()
	for n := 1; st.Step(); n++ {
		fn(row{st: st})
		if n%memEvery == 0 {
			if err := source.CheckMemory(maxMem); err != nil {
				return err
			}
		}
	}
	return st.Err()
}

// nullInt returns column i, or def when it is NULL.
func nullInt(s row, i int, def int64) int64 {
	return s.Int64Or(i, def)
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
