package sqlitefile

import (
	"errors"
	"fmt"
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

// FuzzDecode: decode reads every record header as the field-by-field
// decoder before the size table did (refDecode): the same serial types and
// offsets, the same error.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{5, 1, 2, 0x81, 0x00, 9, 7, 0, 1}, uint8(4), int8(-1))
	f.Add([]byte{3, 10, 13, 'x'}, uint8(3), int8(2))
	f.Add([]byte{2, 0x8f}, uint8(2), int8(0))
	f.Fuzz(func(t *testing.T, rec []byte, nf uint8, rowid int8) {
		fields := make([]int, int(nf)%40)
		for i := range fields {
			fields[i] = i
		}
		tab := Table{Fields: fields, Rowid: max(int(rowid)%40, -1)}
		var got, want Row
		if err := got.setTable(tab); err != nil {
			t.Skip()
		}
		_ = want.setTable(tab)
		gerr, werr := got.decode(7, rec), refDecode(&want, 7, rec)
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("decode: %v, before: %v", gerr, werr)
		}
		if gerr != nil {
			return
		}
		for f := range got.st {
			if got.st[f] != want.st[f] || got.st[f] != 0 && got.off[f] != want.off[f] {
				t.Fatalf("field %d: serial %d at %d, before %d at %d", f, got.st[f], got.off[f], want.st[f], want.off[f])
			}
		}
		checkInt64s(t, &got, uint64(len(rec))*0x9e3779b97f4a7c15)
	})
}

// refDecode is decode as it was before the size table.
func refDecode(r *Row, rowid int64, rec []byte) error {
	r.rowid, r.rec = rowid, rec
	hsize, n := uvarint(rec)
	if n == 0 || hsize < uint64(n) || hsize > uint64(len(rec)) {
		return fmt.Errorf("record header size %d of a %d-byte record", hsize, len(rec))
	}
	pos, body := n, int(hsize)
	for f := 0; f < r.nf; f++ {
		if pos >= int(hsize) {
			r.st[f] = 0
			continue
		}
		t, k := uint64(rec[pos]), 1
		if t >= 0x80 {
			t, k = uvarint(rec[pos:hsize])
		}
		if k == 0 {
			return errors.New("truncated record header")
		}
		pos += k
		size, ok := serialSize(t)
		if !ok || size > uint64(len(rec)-body) {
			return fmt.Errorf("field %d (serial type %d) overruns the %d-byte record", f, t, len(rec))
		}
		r.st[f], r.off[f] = t, body
		body += int(size)
	}
	if r.rowidF >= 0 && r.st[r.rowidF] == 0 {
		r.st[r.rowidF] = serialRowid
	}
	return nil
}

// checkInt64s holds Int64s equal to ColumnInt64 and ColumnType, column by
// column, for the columns of the bits of want.
func checkInt64s(t *testing.T, r *Row, want uint64) {
	n := min(len(r.fields), 64)
	out := make([]int64, n)
	for c := range out {
		out[c] = -7 // left alone unless wanted
	}
	nulls := r.Int64s(out, want)
	for c := range out {
		bit := uint64(1) << c
		if isNull := r.ColumnType(c) == Null; isNull != (nulls&bit != 0) {
			t.Fatalf("column %d: NULL %v, Int64s says %v", c, isNull, nulls&bit != 0)
		}
		w := int64(-7)
		if want&bit != 0 {
			w = r.ColumnInt64(c)
		}
		if out[c] != w {
			t.Fatalf("column %d: Int64s %d, want %d", c, out[c], w)
		}
	}
}
