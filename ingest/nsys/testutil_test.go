package nsys

import (
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// sqliteFile writes a SQLite file named name in a temporary folder by
// running sql, and returns its path.
func sqliteFile(t *testing.T, name, sql string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	conn, err := sqlite3.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	err = conn.Exec(sql)
	conn.Close()
	if err != nil {
		t.Fatal(err)
	}
	return p
}
