package sqlitefile

import (
	"os"
	"testing"
)

// fuzzSeeds are small databases (512-byte pages) the fuzzer starts from:
// a leaf table, an interior page over leaves, overflow pages, a rowid
// alias and an added column.
var fuzzSeeds = []string{
	`CREATE TABLE t (id INTEGER PRIMARY KEY, a, b TEXT, c REAL); INSERT INTO t VALUES (1, 2, 'x', 1.5), (300, -70000, NULL, 3);`,
	`CREATE TABLE t (a, b, c, d); WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM k WHERE i < 60) INSERT INTO t SELECT i, i*1000003, 'r' || i, x'00ff' FROM k;`,
	`CREATE TABLE t (a TEXT, b, c, d); INSERT INTO t VALUES (printf('%.*c', 1500, 'o'), 1, 2, 3);`,
	`CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 2); ALTER TABLE t ADD COLUMN c; ALTER TABLE t ADD COLUMN d; INSERT INTO t VALUES (3, 4, 5, 6);`,
}

// FuzzScan: no file makes Open or a scan of any page panic, loop or
// allocate beyond the file's size, whatever the columns read.
func FuzzScan(f *testing.F) {
	for _, sql := range fuzzSeeds {
		b, err := os.ReadFile(makeDB(f, 512, sql))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(2), uint8(0))
	}
	f.Add([]byte(magic), uint8(1), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, root, rowid uint8) {
		sf, err := Open(readerAt(b), int64(len(b)), "fuzz")
		if err != nil {
			return
		}
		tab := Table{Root: uint32(root), Fields: []int{0, 1, 2, 3, -1}, Rowid: int(rowid%5) - 1, Real: []bool{false, false, false, true, false}}
		rows, sum, err := fuzzScan(sf, tab)
		if max := len(b) / 2; rows > max { // a cell pointer takes 2 bytes, each page is read once
			t.Fatalf("%d rows from %d bytes", rows, len(b))
		}
		mf, merr := OpenBytes(b, "fuzz")
		if merr != nil {
			t.Fatalf("OpenBytes: %v, Open did not fail", merr)
		}
		if mrows, msum, merr := fuzzScan(mf, tab); mrows != rows || msum != sum || (merr == nil) != (err == nil) {
			t.Fatalf("in memory: %d rows (sum %d, %v), from the reader %d (sum %d, %v)", mrows, msum, merr, rows, sum, err)
		}
	})
}

// fuzzScan scans tab, reading every column; it returns the rows, a sum of
// what they hold, and the scan's error.
func fuzzScan(sf *File, tab Table) (rows int, sum int64, err error) {
	err = NewScanner(sf).Scan(tab, func(r *Row) error {
		for c := range tab.Fields {
			sum += int64(r.ColumnType(c)) + r.ColumnInt64(c) + int64(len(r.ColumnRawText(c)))
		}
		rows++
		return nil
	})
	return rows, sum, err
}
