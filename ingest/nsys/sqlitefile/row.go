package sqlitefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Type is a value's storage class, numbered as SQLite's fundamental
// datatypes (SQLITE_INTEGER ... SQLITE_NULL).
type Type uint8

// The storage classes.
const (
	Integer Type = 1
	Float   Type = 2
	Text    Type = 3
	Blob    Type = 4
	Null    Type = 5
)

// serialRowid marks, in Row.st, the rowid alias field stored as NULL (10
// is a reserved serial type, refused in records).
const serialRowid = 10

// Row is the current row of a scan. Its columns are Table.Fields, in that
// order; the accessors convert between storage classes as SQLite's
// sqlite3_column_* functions do for integers and texts.
type Row struct {
	fields  []int
	real    []bool
	rowidF  int
	nf      int // fields decoded per record: the highest read + 1
	rowid   int64
	rec     []byte
	st      []uint64 // serial type per field
	off     []int    // offset of each field's value in rec
	scratch []byte   // the text of a number
}

// setTable prepares the row for the fields of t.
func (r *Row) setTable(t Table) error {
	r.fields, r.rowidF, r.nf = t.Fields, t.Rowid, t.Rowid+1
	r.real = make([]bool, len(t.Fields))
	copy(r.real, t.Real)
	for _, f := range t.Fields {
		if f >= 1<<16 {
			return fmt.Errorf("field %d: more fields than a table can have", f)
		}
		r.nf = max(r.nf, f+1)
	}
	if r.nf > 1<<16 {
		return errors.New("rowid field out of range")
	}
	r.st, r.off = make([]uint64, r.nf), make([]int, r.nf)
	return nil
}

// decode parses the record header of rec up to the last field read.
// Fields past the record's end (columns added by ALTER TABLE after the row
// was written) are NULL.
func (r *Row) decode(rowid int64, rec []byte) error {
	r.rowid, r.rec = rowid, rec
	hsize, n := uvarint(rec)
	if n == 0 || hsize < uint64(n) || hsize > uint64(len(rec)) {
		return fmt.Errorf("record header size %d of a %d-byte record", hsize, len(rec))
	}
	pos, body, hdr := n, int(hsize), rec[:hsize]
	st, off := r.st[:r.nf], r.off[:r.nf]
	for f := range st {
		if pos >= len(hdr) {
			clear(st[f:])
			break
		}
		t, k, size := uint64(hdr[pos]), 1, shortSizes[hdr[pos]&0x7f]
		if t >= 0x80 {
			t, k = uvarint(hdr[pos:])
			if k == 0 {
				return errors.New("truncated record header")
			}
			size = serialSizeOr(t)
		}
		pos += k
		if size > uint64(len(rec)-body) { // badSize for types 10 and 11
			return fmt.Errorf("field %d (serial type %d) overruns the %d-byte record", f, t, len(rec))
		}
		st[f], off[f] = t, body
		body += int(size)
	}
	if r.rowidF >= 0 && r.st[r.rowidF] == 0 {
		r.st[r.rowidF] = serialRowid
	}
	return nil
}

// badSize is serialSizeOr's size of the reserved types 10 and 11: larger
// than any record.
const badSize = math.MaxUint64

// shortSizes are serialSizeOr of the serial types of one header byte (0
// to 127).
var shortSizes = func() (s [128]uint64) {
	for t := range s {
		s[t] = serialSizeOr(uint64(t))
	}
	return s
}()

// serialSizeOr is serialSize, badSize for the reserved types.
func serialSizeOr(t uint64) uint64 {
	if size, ok := serialSize(t); ok {
		return size
	}
	return badSize
}

// serialSizes are the value sizes of serial types 0 to 9.
var serialSizes = [10]uint8{0, 1, 2, 3, 4, 6, 8, 8, 0, 0}

// serialSize is the size of a value of serial type t; false for the
// reserved types 10 and 11.
func serialSize(t uint64) (uint64, bool) {
	switch {
	case t < 10:
		return uint64(serialSizes[t]), true
	case t < 12:
		return 0, false
	}
	return (t - 12) / 2, true
}

// Rowid is the row's rowid.
func (r *Row) Rowid() int64 { return r.rowid }

// serial is column c's serial type (0, NULL, for a column of no field).
func (r *Row) serial(c int) (uint64, int) {
	f := r.fields[c]
	if f < 0 {
		return 0, 0
	}
	return r.st[f], r.off[f]
}

// ColumnType is column c's storage class.
func (r *Row) ColumnType(c int) Type {
	t, _ := r.serial(c)
	switch {
	case t == 0:
		return Null
	case t == 7 || t < 12 && r.real[c]:
		return Float
	case t < 12:
		return Integer
	case t&1 == 1:
		return Text
	}
	return Blob
}

// ColumnInt64 is column c as an integer: 0 for NULL, a float truncated
// (clamped to the int64 range), a text's or blob's leading integer.
func (r *Row) ColumnInt64(c int) int64 {
	t, off := r.serial(c)
	switch {
	case t == 0 || t == 8:
		return 0
	case t == 9:
		return 1
	case t == serialRowid:
		return r.rowid
	case t == 7:
		return floatToInt(math.Float64frombits(binary.BigEndian.Uint64(r.rec[off:])))
	case t < 7:
		return intAt(r.rec[off:], t)
	}
	return atoi(r.bytes(t, off))
}

// Int64Or is ColumnInt64(c), or def when column c is NULL.
func (r *Row) Int64Or(c int, def int64) int64 {
	if t, _ := r.serial(c); t == 0 {
		return def
	}
	return r.ColumnInt64(c)
}

// Int64s sets out[c] to ColumnInt64(c) for each column c < len(out) of
// bit c of want (the others are left alone), and returns the NULL columns
// among the first len(out) as bits: a row's integers in one call, the
// integer serial types decoded in the loop. len(out) is at most 64
// and the number of columns.
func (r *Row) Int64s(out []int64, want uint64) (nulls uint64) {
	fields := r.fields[:len(out)]
	for c, f := range fields {
		var t uint64
		off := 0
		if f >= 0 {
			t, off = r.st[f], r.off[f]
		}
		bit := uint64(1) << c
		switch {
		case t == 0:
			nulls |= bit
			if want&bit != 0 {
				out[c] = 0
			}
		case want&bit == 0:
		case t <= 6:
			out[c] = intAt(r.rec[off:], t)
		case t == 8 || t == 9: // the constants 0 and 1, common for ids and flags
			out[c] = int64(t - 8)
		case t == serialRowid:
			out[c] = r.rowid
		default:
			out[c] = r.ColumnInt64(c)
		}
	}
	return nulls
}

// intAt decodes a big-endian two's-complement integer of serial type t
// (1 to 6).
func intAt(b []byte, t uint64) int64 {
	switch t {
	case 1:
		return int64(int8(b[0]))
	case 2:
		return int64(int16(binary.BigEndian.Uint16(b)))
	case 3:
		return int64(int32(uint32(b[0])<<24|uint32(b[1])<<16|uint32(b[2])<<8) >> 8)
	case 4:
		return int64(int32(binary.BigEndian.Uint32(b)))
	case 5:
		return int64(uint64(binary.BigEndian.Uint16(b))<<48|uint64(binary.BigEndian.Uint32(b[2:]))<<16) >> 16
	}
	return int64(binary.BigEndian.Uint64(b))
}

// bytes is the value of a text or blob serial type at off.
func (r *Row) bytes(t uint64, off int) []byte {
	return r.rec[off : off+int((t-12)/2)]
}

// ColumnRawText is column c as text: a text's or blob's bytes (valid until
// the next row), a number's decimal text, nil for NULL.
func (r *Row) ColumnRawText(c int) []byte {
	t, off := r.serial(c)
	switch {
	case t == 0:
		return nil
	case t >= 12:
		return r.bytes(t, off)
	case t == 7:
		r.scratch = appendFloat(r.scratch[:0], math.Float64frombits(binary.BigEndian.Uint64(r.rec[off:])))
		return r.scratch
	case r.real[c]:
		r.scratch = appendFloat(r.scratch[:0], float64(r.ColumnInt64(c)))
		return r.scratch
	}
	r.scratch = strconv.AppendInt(r.scratch[:0], r.ColumnInt64(c), 10)
	return r.scratch
}

// ColumnText is ColumnRawText as a string ("" for NULL).
func (r *Row) ColumnText(c int) string { return string(r.ColumnRawText(c)) }

// floatToInt converts as SQLite does: truncated, clamped to int64's range.
func floatToInt(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f <= math.MinInt64:
		return math.MinInt64
	case f >= math.MaxInt64:
		return math.MaxInt64
	}
	return int64(f)
}

// appendFloat writes f as SQLite turns a REAL into text: 15 significant
// digits when they read back as f, else 17 (SQLite's own decoding may
// differ in the 17th); positional notation for decimal exponents from -4
// to 16, else d.ddde+XX; a mantissa always has a point (".0").
func appendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return b // SQLite stores NaN as NULL
	case math.IsInf(f, 1):
		return append(b, "Inf"...)
	case math.IsInf(f, -1):
		return append(b, "-Inf"...)
	}
	e := strconv.FormatFloat(f, 'e', 14, 64)
	if g, _ := strconv.ParseFloat(e, 64); g != f {
		e = strconv.FormatFloat(f, 'e', 16, 64)
	}
	if f < 0 || e[0] == '-' {
		b, e = append(b, '-'), e[1:]
	}
	i := strings.IndexByte(e, 'e')
	digits := strings.TrimRight(e[:1]+e[2:i], "0")
	exp, _ := strconv.Atoi(e[i+1:])
	if exp < -4 || exp > 16 {
		return append(appendPoint(append(b, digits[0]), digits[1:]), e[i:i+2]+fmt.Sprintf("%02d", max(exp, -exp))...)
	}
	if exp < 0 {
		return append(append(b, "0."...), strings.Repeat("0", -exp-1)+digits...)
	}
	for len(digits) <= exp {
		digits += "0"
	}
	return appendPoint(append(b, digits[:exp+1]...), digits[exp+1:])
}

// appendPoint writes "." and the digits after the point, "0" for none.
func appendPoint(b []byte, frac string) []byte {
	if frac == "" {
		frac = "0"
	}
	return append(append(b, '.'), frac...)
}

// atoi is the leading integer of b as SQLite reads a text as an integer:
// leading spaces and a sign allowed, clamped on overflow, 0 for none.
func atoi(b []byte) int64 {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] >= '\t' && b[i] <= '\r') {
		i++
	}
	neg := i < len(b) && b[i] == '-'
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		i++
	}
	var u uint64
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if u > (math.MaxUint64-9)/10 {
			u = math.MaxUint64
			break
		}
		u = u*10 + uint64(b[i]-'0')
	}
	switch {
	case neg && u > 1<<63:
		return math.MinInt64
	case neg:
		return -int64(u)
	case u > math.MaxInt64:
		return math.MaxInt64
	}
	return int64(u)
}
