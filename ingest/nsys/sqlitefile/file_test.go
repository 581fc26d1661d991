package sqlitefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// makeDB runs sql in a new database file (page size pageSize) and returns
// its path.
func makeDB(t testing.TB, pageSize int, sql string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.sqlite")
	conn, err := sqlite3.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Exec(fmt.Sprintf("PRAGMA page_size=%d; PRAGMA journal_mode=DELETE;", pageSize) + sql); err != nil {
		t.Fatal(err)
	}
	return p
}

// value is one column of one row, as both readers give it.
type value struct {
	typ  int
	i    int64
	text string
}

// tableInfo is what the caller of Scan learns from SQLite: the root page
// and the columns in record order, and the INTEGER PRIMARY KEY column.
func tableInfo(t testing.TB, conn *sqlite3.Conn, table string) (root uint32, cols []string, rowid int, real []bool) {
	t.Helper()
	st, _, err := conn.Prepare(`SELECT rootpage FROM sqlite_master WHERE name = ?`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.BindText(1, table)
	if !st.Step() {
		t.Fatalf("no table %s", table)
	}
	root = uint32(st.ColumnInt64(0))
	pi, _, err := conn.Prepare(`SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid`)
	if err != nil {
		t.Fatal(err)
	}
	defer pi.Close()
	pi.BindText(1, table)
	rowid = -1
	for pi.Step() {
		if pi.ColumnInt64(2) == 1 && strings.EqualFold(pi.ColumnText(1), "INTEGER") {
			rowid = len(cols)
		}
		cols = append(cols, pi.ColumnText(0))
		real = append(real, RealAffinity(pi.ColumnText(1)))
	}
	return root, cols, rowid, real
}

// sqlRows reads every column of table through SQLite.
func sqlRows(t testing.TB, conn *sqlite3.Conn, table string, cols []string) [][]value {
	t.Helper()
	st, _, err := conn.Prepare(`SELECT ` + strings.Join(cols, ", ") + ` FROM ` + table)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out [][]value
	for st.Step() {
		r := make([]value, len(cols))
		for i := range cols {
			r[i] = value{int(st.ColumnType(i)), st.ColumnInt64(i), st.ColumnText(i)}
		}
		out = append(out, r)
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// rawRows reads every column of table with the raw reader.
func rawRows(t testing.TB, path string, root uint32, ncols, rowid int, real ...bool) ([][]value, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	sf, err := Open(f, st.Size(), path)
	if err != nil {
		return nil, err
	}
	fields := make([]int, ncols)
	for i := range fields {
		fields[i] = i
	}
	var out [][]value
	err = NewScanner(sf).Scan(Table{Root: root, Fields: fields, Rowid: rowid, Real: real}, func(r *Row) error {
		v := make([]value, ncols)
		for i := range v {
			v[i] = value{int(r.ColumnType(i)), r.ColumnInt64(i), r.ColumnText(i)}
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// sameRows checks that the raw reader yields exactly SQLite's rows of
// table, in order, and returns how many.
func sameRows(t *testing.T, path, table string) int {
	t.Helper()
	conn, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	root, cols, rowid, real := tableInfo(t, conn, table)
	want := sqlRows(t, conn, table, cols)
	got, err := rawRows(t, path, root, len(cols), rowid, real...)
	if err != nil {
		t.Fatalf("%s: %v", table, err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, SQLite %d", table, len(got), len(want))
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("%s row %d:\n got %v\nwant %v", table, i, got[i], want[i])
		}
	}
	return len(want)
}

func TestValuesOfEveryType(t *testing.T) {
	p := makeDB(t, 4096, `CREATE TABLE v (a, b INTEGER, c TEXT, d REAL, e BLOB);
INSERT INTO v VALUES (NULL, 0, '', 0.5, x''), (1, -1, 'héllo', -2.25, x'00ff'),
 (127, 128, '12abc', 1e300, x'31'), (-128, -32768, '  -42', 3.0, NULL),
 (32767, 8388607, '99999999999999999999', -1e300, x'2d35'), (-8388608, 2147483647, '-99999999999999999999', 0.0, x''),
 (-2147483648, 140737488355327, '+7', 1.5, NULL), (-140737488355328, 9223372036854775807, 'x', NULL, NULL),
 (-9223372036854775808, 281474976710656, NULL, 2.5e15, 'text in a blob column'), (2.75, '17', 5, 7, 8);`)
	if n := sameRows(t, p, "v"); n != 10 {
		t.Fatalf("%d rows", n)
	}
}

// TestFloatText: a REAL's text as SQLite writes it, for values whose 15
// or 17 digits SQLite decodes exactly (1.0/3 it does not: its 17th digit
// differs, nor subnormals).
func TestFloatText(t *testing.T) {
	p := makeDB(t, 4096, `CREATE TABLE f (x REAL);
INSERT INTO f VALUES (1e15), (2.5e15), (1e16), (1.5e16), (1e17), (123456789012345678.0), (0.1), (1e-5), (1e-4), (-1.5e-7),
  (1e300), (1.23456789012345678e20), (9.999999999999999e22), (-0.0), (4.35), (-4.35), (1e308*10), (-1e308*10),
  (0.30000000000000004), (123.456), (-2.0), (65536.0), (1e-4 * 3), (0.5);`)
	if n := sameRows(t, p, "f"); n != 24 {
		t.Fatalf("%d rows", n)
	}
}

func TestOverflowPages(t *testing.T) {
	for _, ps := range []int{512, 4096, 65536} {
		t.Run(fmt.Sprint(ps), func(t *testing.T) {
			p := makeDB(t, ps, `CREATE TABLE o (id INTEGER PRIMARY KEY, s TEXT, b BLOB, n INTEGER);
WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM k WHERE i < 40)
INSERT INTO o (s, b, n) SELECT printf('%.*c', i*i*97 % 200000, 'x') || i, randomblob(i*1531 % 70000), i FROM k;`)
			if n := sameRows(t, p, "o"); n != 41 {
				t.Fatalf("%d rows", n)
			}
		})
	}
}

func TestManyLevels(t *testing.T) {
	p := makeDB(t, 512, `CREATE TABLE m (start INTEGER NOT NULL, end INTEGER, name TEXT);
WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM k WHERE i < 49999)
INSERT INTO m SELECT i*1000, CASE WHEN i % 7 = 0 THEN NULL ELSE i*1000+500 END, 'kernel_' || (i % 13) FROM k;
DELETE FROM m WHERE start % 3000 = 0;`)
	conn, err := sqlite3.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	root, _, _, _ := tableInfo(t, conn, "m")
	conn.Close()
	f, _ := os.Open(p)
	defer f.Close()
	st, _ := f.Stat()
	sf, err := Open(f, st.Size(), p)
	if err != nil {
		t.Fatal(err)
	}
	if d := depth(t, sf, root); d < 3 {
		t.Fatalf("b-tree depth %d, want >= 3 (the test is about interior pages)", d)
	}
	if n := sameRows(t, p, "m"); n != 50000-16667 {
		t.Fatalf("%d rows", n)
	}
}

// depth is the number of levels from root to its leftmost leaf.
func depth(t *testing.T, f *File, root uint32) int {
	buf, s := make([]byte, f.pageSize), NewScanner(f)
	for d := 1; ; d++ {
		if err := s.readPage(root, buf); err != nil {
			t.Fatal(err)
		}
		if buf[0] == leafTable {
			return d
		}
		p := level{buf: buf[:f.usable]}
		if err := p.check(); err != nil {
			t.Fatal(err)
		}
		off, err := p.cell(0)
		if err != nil {
			t.Fatal(err)
		}
		root = uint32(buf[off])<<24 | uint32(buf[off+1])<<16 | uint32(buf[off+2])<<8 | uint32(buf[off+3])
	}
}

func TestAddColumnAndIntegerPrimaryKey(t *testing.T) {
	p := makeDB(t, 1024, `CREATE TABLE s (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO s VALUES (5, 'five'), (1, 'one'), (1000000, 'million'), (-3, 'minus three');
ALTER TABLE s ADD COLUMN extra INTEGER;
ALTER TABLE s ADD COLUMN more TEXT;
INSERT INTO s VALUES (7, 'seven', 70, 'x'), (8, 'eight', NULL, NULL);`)
	if n := sameRows(t, p, "s"); n != 6 {
		t.Fatalf("%d rows", n)
	}
	// The old rows' records stop before the added columns.
	conn, _ := sqlite3.Open(p)
	root, _, rowid, _ := tableInfo(t, conn, "s")
	conn.Close()
	if rowid != 0 {
		t.Fatalf("rowid column %d", rowid)
	}
	rows, err := rawRows(t, p, root, 4, -1)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0][0].typ != int(Null) || rows[0][2].typ != int(Null) || rows[0][1].text != "minus three" {
		t.Errorf("without the rowid alias, the id is its stored NULL and the added column NULL: %v", rows[0])
	}
}

// TestReservedBytes: pages with bytes reserved at their end (by an
// encryption or checksum extension) have fewer usable bytes.
func TestReservedBytes(t *testing.T) {
	p := makeDB(t, 1024, `CREATE TABLE z (x); DROP TABLE z; VACUUM;`)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[20] = 40
	b[105], b[106] = 0x03, 0xd8 // page 1's cell content area starts at the usable end, 984
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	conn, err := sqlite3.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	err = conn.Exec(`CREATE TABLE r (a TEXT, n INTEGER);
WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM k WHERE i < 2000)
INSERT INTO r SELECT printf('%.*c', i % 1500, 'r'), i FROM k;`)
	conn.Close()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); b[20] != 40 {
		t.Fatalf("reserved bytes %d after writing", b[20])
	}
	if n := sameRows(t, p, "r"); n != 2001 {
		t.Fatalf("%d rows", n)
	}
}

func TestRefusesOtherEncodings(t *testing.T) {
	p := filepath.Join(t.TempDir(), "u16.sqlite")
	conn, err := sqlite3.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Exec(`PRAGMA encoding='UTF-16le'; CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('x');`); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	_, err = rawRows(t, p, 2, 1, -1)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "u16.sqlite") {
		t.Fatalf("err = %v, want ErrUnsupported naming the file", err)
	}
}

func TestRefusesIndexPages(t *testing.T) {
	p := makeDB(t, 4096, `CREATE TABLE w (k TEXT PRIMARY KEY, v) WITHOUT ROWID; INSERT INTO w VALUES ('a', 1);`)
	conn, _ := sqlite3.Open(p)
	root, _, _, _ := tableInfo(t, conn, "w")
	conn.Close()
	_, err := rawRows(t, p, root, 2, -1)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("page %d: page type 0x0a", root)) {
		t.Fatalf("err = %v, want the page named as not a table page", err)
	}
}

// corrupt returns a copy of the database at path with page n (1-based)
// changed by edit.
func corrupt(t *testing.T, path string, pageSize int, n int, edit func(page []byte)) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edit(b[(n-1)*pageSize : n*pageSize])
	out := filepath.Join(t.TempDir(), "bad.sqlite")
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDamagedPages(t *testing.T) {
	p := makeDB(t, 512, `CREATE TABLE m (a INTEGER, b TEXT);
WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM k WHERE i < 3000)
INSERT INTO m SELECT i, 'row ' || i FROM k;
CREATE TABLE big (t TEXT); INSERT INTO big VALUES (printf('%.*c', 5000, 'b'));`)
	conn, _ := sqlite3.Open(p)
	root, _, _, _ := tableInfo(t, conn, "m")
	bigRoot, _, _, _ := tableInfo(t, conn, "big")
	conn.Close()
	cases := []struct {
		name, want string
		page       int
		edit       func([]byte)
	}{
		{"child is the root", "a cycle", int(root), func(b []byte) { copy(b[8:12], []byte{0, 0, 0, byte(root)}) }},
		{"child out of range", "out of range", int(root), func(b []byte) { copy(b[8:12], []byte{0x7f, 0, 0, 0}) }},
		{"too many cells", "do not fit", int(root), func(b []byte) { b[3], b[4] = 0xff, 0xff }},
		{"cell pointer outside", "outside the cell content area", int(root), func(b []byte) { b[12], b[13] = 0xff, 0xf0 }},
		{"page type", "not a table b-tree page", int(root), func(b []byte) { b[0] = 0x0a }},
		{"overflow chain cut", "overflow", int(bigRoot), func(b []byte) {
			off := int(b[8])<<8 | int(b[9])
			_, n := uvarint(b[off:])
			_, m := uvarint(b[off+n:])
			loc := off + n + m + (&Scanner{f: &File{usable: 512}}).localSize(5003)
			copy(b[loc:loc+4], []byte{0, 0, 0, 0})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := corrupt(t, p, 512, c.page, c.edit)
			r := root
			if c.page == int(bigRoot) {
				r = bigRoot
			}
			_, err := rawRows(t, bad, r, 2, -1)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bad.sqlite page ") {
				t.Fatalf("err = %v, want %q naming the file and page", err, c.want)
			}
		})
	}
}

func TestHeaderChecks(t *testing.T) {
	p := makeDB(t, 4096, `CREATE TABLE t (a);`)
	good, _ := os.ReadFile(p)
	for name, c := range map[string]struct {
		edit func([]byte)
		want string
	}{
		"magic":     {func(b []byte) { b[0] = 'X' }, "bad magic"},
		"page size": {func(b []byte) { b[16], b[17] = 0x03, 0 }, "page size 768"},
		"reserved":  {func(b []byte) { b[16], b[17], b[20] = 2, 0, 33 }, "under 480"},
		"fractions": {func(b []byte) { b[21] = 1 }, "payload fractions"},
		"short":     {func(b []byte) {}, "too short"},
	} {
		b := slices.Clone(good)
		c.edit(b)
		if name == "short" {
			b = b[:50]
		}
		_, err := Open(readerAt(b), int64(len(b)), name)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", name, err, c.want)
		}
	}
	if f, err := Open(readerAt(good), int64(len(good)), "ok"); err != nil || f.PageSize() != 4096 || f.Pages() != 2 {
		t.Fatalf("good header: %v, %+v", err, f)
	}
}

// readerAt is a byte slice as an io.ReaderAt.
type readerAt []byte

func (r readerAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= int64(len(r)) {
		return 0, errors.New("read past the end")
	}
	n := copy(p, r[off:])
	if n < len(p) {
		return n, errors.New("short read")
	}
	return n, nil
}
