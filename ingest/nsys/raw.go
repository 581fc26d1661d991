package nsys

import (
	"cmp"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/ncruces/go-sqlite3"
	"github.com/tpptrace/tpptrace/ingest/nsys/sqlitefile"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// row is one result row, of an SQLite statement or of the raw reader: the
// per-row code reads both through it. A struct rather than an interface:
// a column is a direct call into the raw reader (through an interface it
// was a dynamic call and a wrapper's), the statement's columns out of line.
type row struct {
	raw *sqlitefile.Row // nil: st
	st  *sqlite3.Stmt
}

// ColumnInt64 is column i as an integer.
func (r row) ColumnInt64(i int) int64 {
	if r.raw == nil {
		return stmtInt64(r.st, i)
	}
	return r.raw.ColumnInt64(i)
}

// ColumnType is column i's storage class (the raw reader numbers them as
// SQLite).
func (r row) ColumnType(i int) sqlite3.Datatype {
	if r.raw == nil {
		return stmtType(r.st, i)
	}
	return sqlite3.Datatype(r.raw.ColumnType(i))
}

// ColumnText is column i as a string.
func (r row) ColumnText(i int) string { return string(r.ColumnRawText(i)) }

// ColumnRawText is column i as text, valid until the next row.
func (r row) ColumnRawText(i int) []byte {
	if r.raw == nil {
		return stmtRawText(r.st, i)
	}
	return r.raw.ColumnRawText(i)
}

// Int64Or is column i, or def when it is NULL.
func (r row) Int64Or(i int, def int64) int64 {
	if r.raw == nil {
		return stmtInt64Or(r.st, i, def)
	}
	return r.raw.Int64Or(i, def)
}

// Int64s sets out[c] to column c as an integer for the columns c of the
// bits of want, and returns the NULL columns (bit c) among the first
// len(out) (at most 64): a row's integers in one call.
func (r row) Int64s(out []int64, want uint64) uint64 {
	if r.raw == nil {
		return stmtInt64s(r.st, out, want)
	}
	return r.raw.Int64s(out, want)
}

// notNull is whether bit c of a NULL set from Int64s is clear.
func notNull(nulls uint64, c int) bool { return nulls&(1<<c) == 0 }

// or is v[c], or def when bit c of nulls is set.
func or(v []int64, nulls uint64, c int, def int64) int64 {
	if notNull(nulls, c) {
		return v[c]
	}
	return def
}

// The statement's columns, kept out of line so that row's methods inline.

//go:noinline
func stmtInt64(st *sqlite3.Stmt, i int) int64 { return st.ColumnInt64(i) }

//go:noinline
func stmtType(st *sqlite3.Stmt, i int) sqlite3.Datatype { return st.ColumnType(i) }

//go:noinline
func stmtRawText(st *sqlite3.Stmt, i int) []byte { return st.ColumnRawText(i) }

func stmtInt64s(st *sqlite3.Stmt, out []int64, want uint64) (nulls uint64) {
	for c := range out {
		bit := uint64(1) << c
		if st.ColumnType(c) == sqlite3.NULL {
			nulls |= bit
		}
		if want&bit != 0 {
			out[c] = st.ColumnInt64(c)
		}
	}
	return nulls
}

//go:noinline
func stmtInt64Or(st *sqlite3.Stmt, i int, def int64) int64 {
	if st.ColumnType(i) == sqlite3.NULL {
		return def
	}
	return st.ColumnInt64(i)
}

// useRaw lets tests read every table through SQLite.
var useRaw = true

// rawFile is the export opened a second time for the raw reader.
type rawFile struct {
	f   *os.File
	sc  *sqlitefile.Scanner
	mem *[]byte // the whole file when it is small, from filePool
}

// wholeFile is the largest export read into memory whole, in one read: a
// per-rank export is a few MB, and reading its pages as the scans went was
// about a hundred reads (some pages twice).
var wholeFile int64 = 8 << 20 // a variable for the tests

// filePool holds the buffers of exports read whole, between files.
var filePool = sync.Pool{New: func() any { return new([]byte) }}

// openRaw opens path for the raw reader; nil (every table read through
// SQLite) when its header is one the raw reader does not decode.
func openRaw(path string) *rawFile {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	r := &rawFile{f: f}
	if sf, err := r.open(path); err == nil {
		r.sc = sqlitefile.NewScanner(sf)
		return r
	}
	r.close()
	return nil
}

// open opens the file for the raw reader: read whole, its pages then read
// in place, when it is small enough.
func (r *rawFile) open(path string) (*sqlitefile.File, error) {
	st, err := r.f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > wholeFile {
		return sqlitefile.Open(r.f, st.Size(), path)
	}
	r.mem = filePool.Get().(*[]byte)
	if int64(cap(*r.mem)) < st.Size() {
		*r.mem = make([]byte, st.Size())
	}
	b := (*r.mem)[:st.Size()]
	if _, err := io.ReadFull(r.f, b); err != nil {
		return nil, err
	}
	return sqlitefile.OpenBytes(b, path)
}

func (r *rawFile) close() {
	if r == nil {
		return
	}
	if r.sc != nil {
		r.sc.Release()
	}
	if r.mem != nil {
		filePool.Put(r.mem)
	}
	r.f.Close()
}

// rawRead are the tables readTable reads (the others' layouts are not
// kept).
var rawRead = map[string]bool{kernelTable: true, "CUPTI_ACTIVITY_KIND_RUNTIME": true, "CUPTI_ACTIVITY_KIND_MEMCPY": true,
	"CUPTI_ACTIVITY_KIND_MEMSET": true, "NVTX_EVENTS": true, "StringIds": true, memTable: true,
	"META_DATA_EXPORT": true, "META_DATA_CAPTURE": true, "TARGET_INFO_SESSION_START_TIME": true, "TARGET_INFO_SYSTEM_ENV": true,
	"TARGET_INFO_GPU": true, "TARGET_INFO_CUDA_DEVICE": true}

// tableLayout is what the raw reader needs of a table: its root page and
// each column's record field, or why it is left to SQLite.
type tableLayout struct {
	root     uint32
	why      string         // "" when the raw reader may read it
	fields   map[string]int // column -> record field
	defaults map[string]bool
	real     map[string]bool // columns of REAL affinity
	pkField  int             // the primary key column's field (one column), -1 none
	pkType   string
	pks      int
	pkDesc   bool   // INTEGER PRIMARY KEY DESC: not a rowid alias
	sql      string // the CREATE TABLE statement until checkSQL
}

var (
	withoutRowid = regexp.MustCompile(`(?i)\bWITHOUT\s+ROWID\b`)
	primaryDesc  = regexp.MustCompile(`(?i)\bPRIMARY\s+KEY\s+DESC\b`)
)

func newLayout(root int64, sql string) *tableLayout {
	l := &tableLayout{fields: map[string]int{}, defaults: map[string]bool{}, real: map[string]bool{}, pkField: -1, sql: sql}
	if root < 1 || root >= 1<<32 {
		l.why = "no root page"
	}
	l.root = uint32(root)
	return l
}

// checkSQL looks, once and only in the tables read, for what the CREATE
// TABLE statement says that changes the layout (regular expressions over
// every statement, comments included, were 8 % of reading an export).
func (l *tableLayout) checkSQL() {
	if l.sql == "" {
		return
	}
	u := strings.ToUpper(l.sql) // the regular expressions only where the words are
	if strings.Contains(u, "WITHOUT") && withoutRowid.MatchString(l.sql) {
		l.why = cmp.Or(l.why, "a WITHOUT ROWID table")
	}
	l.pkDesc, l.sql = strings.Contains(u, "DESC") && primaryDesc.MatchString(l.sql), ""
}

// add records column cid (a pragma_table_xinfo row).
func (l *tableLayout) add(cid int, name, typ string, pk int64, hasDefault, hidden bool) {
	if hidden {
		l.why = cmp.Or(l.why, "a hidden or generated column")
	}
	l.fields[name] = cid
	l.defaults[name] = hasDefault
	l.real[name] = sqlitefile.RealAffinity(typ)
	if pk > 0 {
		l.pks++
		l.pkField, l.pkType = cid, typ
	}
}

// rowid is the field that aliases the rowid: the one INTEGER PRIMARY KEY.
func (l *tableLayout) rowid() int {
	if l.pks == 1 && strings.EqualFold(l.pkType, "INTEGER") {
		return l.pkField
	}
	return -1
}

// table is the raw reader's Table of columns cols ("" for NULL), false
// when the table or one column is left to SQLite.
func (l *tableLayout) table(cols []string) (sqlitefile.Table, bool) {
	l.checkSQL()
	rowid := l.rowid()
	if l.why != "" || rowid >= 0 && l.pkDesc {
		return sqlitefile.Table{}, false
	}
	t := sqlitefile.Table{Root: l.root, Fields: make([]int, len(cols)), Rowid: rowid, Real: make([]bool, len(cols))}
	for i, c := range cols {
		f, ok := l.fields[c]
		switch {
		case c == "":
			f = -1
		case !ok || l.defaults[c]:
			return sqlitefile.Table{}, false // rows older than an ADD COLUMN would need the default
		}
		t.Fields[i], t.Real[i] = f, l.real[c]
	}
	return t, true
}

// readTable calls fn with columns cols ("" reads as NULL) of every row of
// table in table order: through the raw reader when it can, else through
// SQLite.
func (d *db) readTable(table string, cols []string, fn func(row)) error {
	if l := d.layoutOf(table); d.raw != nil && useRaw && l != nil {
		if t, ok := l.table(cols); ok {
			return d.rawScan(t, fn)
		}
	}
	return d.each(selectQuery(table, cols), fn)
}

// selectQuery is the SQL of readTable.
func selectQuery(table string, cols []string) string {
	sel := make([]string, len(cols))
	for i, c := range cols {
		sel[i] = cmp.Or(c, "NULL")
	}
	return `SELECT ` + strings.Join(sel, ", ") + ` FROM ` + table
}

// rawScan reads t through the raw reader, checking the memory budget every
// memEvery rows.
func (d *db) rawScan(t sqlitefile.Table, fn func(row)) error {
	n := 0
	return d.raw.sc.Scan(t, func(x *sqlitefile.Row) error {
		fn(row{raw: x})
		if n++; n%memEvery == 0 {
			return source.CheckMemory(d.maxMem)
		}
		return nil
	})
}
