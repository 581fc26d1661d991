package nsys

import (
	"sync"

	"github.com/tpptrace/tpptrace/ingest/nsys/sqlitefile"
)

// rawSchema lists the tables from sqlite_master, read by the raw reader, as
// listTables does through SQLite (tables with a statement, virtual ones
// left out). Their statements are parsed when first asked about (an
// export has ~90 tables; a read looks at a dozen).
func (d *db) rawSchema() error {
	rows, err := d.raw.sc.Master()
	if err != nil {
		return err
	}
	d.tables, d.cols, d.layout = map[string]bool{}, map[string]map[string]bool{}, map[string]*tableLayout{}
	d.stmts = make(map[string]sqlitefile.MasterRow, len(rows))
	for _, r := range rows {
		if r.Type != "table" || !r.HasSQL || hasPrefixFold(r.SQL, "CREATE VIRTUAL") {
			continue
		}
		d.tables[r.Name] = true
		d.stmts[r.Name] = r
	}
	return nil
}

// parse parses table's statement if it is waiting; a statement the parser
// does not fully understand hands the whole schema to SQLite (when SQLite
// cannot list it either, the tables not parsed yet read as absent).
func (d *db) parse(table string) {
	r, ok := d.stmts[table]
	if !ok {
		return
	}
	delete(d.stmts, table)
	if err := d.parseTable(r); err != nil {
		if err := d.sqliteSchema(); err != nil {
			d.tables = map[string]bool{}
		}
	}
}

// layoutOf is table's layout, nil when it is not one of the tables read.
func (d *db) layoutOf(table string) *tableLayout {
	d.parse(table)
	return d.layout[table]
}

// parseTable records the columns (and, for the tables read, the layout)
// of one CREATE TABLE statement, as listTables does from SQLite's pragma.
func (d *db) parseTable(r sqlitefile.MasterRow) error {
	def, err := parseCreate(r.SQL)
	if err != nil {
		return err
	}
	cols := make(map[string]bool, len(def.Columns))
	var l *tableLayout
	if rawRead[r.Name] {
		l = newLayout(r.Root, "")
		l.pkDesc = def.PKDesc
		if def.WithoutRowid {
			l.why = "a WITHOUT ROWID table"
		}
	}
	for i, c := range def.Columns {
		cols[c.Name] = true
		if l != nil {
			l.add(i, c.Name, c.Type, int64(c.PK), c.HasDefault, false)
		}
	}
	d.cols[r.Name] = cols
	if l != nil {
		d.layout[r.Name] = l
	}
	return nil
}

// parsedCreate holds ParseCreateTable's results by statement, shared by
// the exports of a job (one per rank, all with the same statements); up to
// parsedMax statements, the Columns never changed by their users.
var parsedCreate = struct {
	sync.Mutex
	m map[string]parsedDef
}{m: map[string]parsedDef{}}

const parsedMax = 1024

type parsedDef struct {
	def sqlitefile.TableDef
	err error
}

// parseCreate is sqlitefile.ParseCreateTable(sql), parsed once per
// statement.
func parseCreate(sql string) (sqlitefile.TableDef, error) {
	parsedCreate.Lock()
	p, ok := parsedCreate.m[sql]
	parsedCreate.Unlock()
	if ok {
		return p.def, p.err
	}
	def, err := sqlitefile.ParseCreateTable(sql)
	parsedCreate.Lock()
	if len(parsedCreate.m) < parsedMax {
		parsedCreate.m[sql] = parsedDef{def, err}
	}
	parsedCreate.Unlock()
	return def, err
}

// hasPrefixFold is SQLite's s LIKE 'prefix%' for an ASCII prefix without
// wildcards.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && foldEqual([]byte(s[:len(prefix)]), prefix)
}

// foldEqual compares b with the ASCII text upper, ignoring ASCII case (as
// SQLite's LIKE does; other bytes must be equal).
func foldEqual(b []byte, upper string) bool {
	if len(b) != len(upper) {
		return false
	}
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != upper[i] {
			return false
		}
	}
	return true
}

// maxRowids is each table's largest rowid (0 for an empty one), as
// SQLite's MAX(rowid) gives it: from the raw reader (the last cell of
// the table's b-tree), else through SQLite.
func (d *db) maxRowids(tables []string) []int64 {
	out := make([]int64, len(tables))
	for i, t := range tables {
		l := d.layout[t]
		if d.raw == nil || !useRaw || l == nil || l.why != "" {
			return d.sqlMaxRowids(tables)
		}
		n, _, err := d.raw.sc.LastRowid(l.root)
		if err != nil {
			return d.sqlMaxRowids(tables)
		}
		out[i] = n
	}
	return out
}

// sqlMaxRowids is maxRowids through SQLite; all 0 on an error.
func (d *db) sqlMaxRowids(tables []string) []int64 {
	out := make([]int64, len(tables))
	sel := ""
	for i, t := range tables {
		if i > 0 {
			sel += ", "
		}
		sel += "(SELECT MAX(rowid) FROM " + t + ")"
	}
	_ = d.each(`SELECT `+sel, func(s row) {
		for i := range out {
			out[i] = s.ColumnInt64(i)
		}
	})
	return out
}
