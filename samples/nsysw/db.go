package nsysw

import (
	"fmt"
	"os"
	"strings"

	"github.com/ncruces/go-sqlite3"
)

// file is one export being written: tables are created when their first
// row comes (nsys exports lazily), strings are interned into StringIds.
type file struct {
	conn    *sqlite3.Conn
	stmts   map[string]*sqlite3.Stmt
	strings map[string]int64
}

func create(path string) (*file, error) {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	conn, err := sqlite3.Open(path)
	if err != nil {
		return nil, err
	}
	f := &file{conn: conn, stmts: map[string]*sqlite3.Stmt{}, strings: map[string]int64{}}
	if err := conn.Exec(`PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN`); err != nil {
		conn.Close()
		return nil, err
	}
	return f, nil
}

// insert adds a row to table, naming its columns as "a, b, c".
func (f *file) insert(table, cols string, vals ...any) error {
	key := table + "(" + cols + ")"
	st, ok := f.stmts[key]
	if !ok {
		var err error
		if st, err = f.prepare(table, cols, len(vals)); err != nil {
			return err
		}
		f.stmts[key] = st
	}
	for i, v := range vals {
		if err := bind(st, i+1, v); err != nil {
			return fmt.Errorf("%s column %d: %w", table, i, err)
		}
	}
	return st.Exec()
}

func (f *file) prepare(table, cols string, n int) (*sqlite3.Stmt, error) {
	if !f.hasTable(table) {
		if err := f.conn.Exec(ddl[table]); err != nil {
			return nil, fmt.Errorf("create %s: %w", table, err)
		}
	}
	q := "INSERT INTO " + table + " (" + cols + ") VALUES (" + strings.TrimSuffix(strings.Repeat("?,", n), ",") + ")"
	st, _, err := f.conn.Prepare(q)
	return st, err
}

func (f *file) hasTable(table string) bool {
	for k := range f.stmts {
		if strings.HasPrefix(k, table+"(") {
			return true
		}
	}
	return false
}

func bind(st *sqlite3.Stmt, i int, v any) error {
	switch x := v.(type) {
	case nil:
		return st.BindNull(i)
	case int:
		return st.BindInt64(i, int64(x))
	case int32:
		return st.BindInt64(i, int64(x))
	case int64:
		return st.BindInt64(i, x)
	case string:
		return st.BindText(i, x)
	}
	return fmt.Errorf("cannot bind %T", v)
}

// str interns s into StringIds.
func (f *file) str(s string) (int64, error) {
	if id, ok := f.strings[s]; ok {
		return id, nil
	}
	id := int64(len(f.strings))
	f.strings[s] = id
	return id, f.insert("StringIds", "id, value", id, s)
}

func (f *file) close() error {
	for _, st := range f.stmts {
		st.Close()
	}
	err := f.conn.Exec(`COMMIT`)
	if cerr := f.conn.Close(); err == nil {
		err = cerr
	}
	return err
}
