// Package sqlitefile reads the rows of rowid tables straight from an
// SQLite database file: a read-only decoder of the file format (the
// 100-byte header, table b-tree pages, cells, overflow chains and records),
// standard library only. The caller gives a table's root page and which
// record fields to read; Master reads sqlite_master (the schema table on
// page 1), ParseCreateTable reads the column layout from a CREATE TABLE
// statement as SQLite's pragma_table_xinfo would (refusing, with
// ErrUnsupported, any statement it does not fully understand), and
// LastRowid is MAX(rowid) from the b-tree. A scan yields the rows in
// rowid order, as SQLite's full-table scan does. A file opened with
// OpenBytes is read in place.
//
// Anything it does not decode (another text encoding than UTF-8, an index
// or WITHOUT ROWID b-tree, a damaged page) is an error naming the file and
// the page; nothing in the file can make it panic, loop or allocate more
// than the file's size.
package sqlitefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// File is one database file opened for scanning.
type File struct {
	r        io.ReaderAt
	mem      []byte // the whole file, when opened with OpenBytes: pages are read in place
	name     string
	size     int64
	pageSize int
	usable   int    // page size less the reserved bytes at each page's end
	pages    uint32 // the database's page count
	schema   uint32 // the schema format number
}

// headerSize is the size of the database header at the start of page 1.
const headerSize = 100

const magic = "SQLite format 3\x00"

// ErrUnsupported is wrapped by the errors of files this package does not
// decode but SQLite may (another text encoding, a newer file format): the
// caller may read them through SQLite instead.
var ErrUnsupported = errors.New("unsupported by the raw reader")

// Open reads and checks the header of the database r of size bytes; name
// is the file's name in errors.
func Open(r io.ReaderAt, size int64, name string) (*File, error) {
	var h [headerSize]byte
	if size < headerSize {
		return nil, fmt.Errorf("%s: %d bytes, too short for an SQLite database", name, size)
	}
	if _, err := r.ReadAt(h[:], 0); err != nil {
		return nil, fmt.Errorf("%s: read header: %w", name, err)
	}
	f := &File{r: r, name: name, size: size}
	if err := f.header(h[:]); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// OpenBytes is Open of a file held in memory whole: scans read its pages
// in place, without copying them. b must not change while f is used.
func OpenBytes(b []byte, name string) (*File, error) {
	f, err := Open(bytes.NewReader(b), int64(len(b)), name)
	if err != nil {
		return nil, err
	}
	f.mem = b
	return f, nil
}

// header checks the database header and sets the page geometry.
func (f *File) header(h []byte) error {
	if string(h[:16]) != magic {
		return errors.New("not an SQLite 3 database (bad magic)")
	}
	f.pageSize = int(binary.BigEndian.Uint16(h[16:]))
	if f.pageSize == 1 {
		f.pageSize = 65536
	}
	if f.pageSize < 512 || f.pageSize&(f.pageSize-1) != 0 {
		return fmt.Errorf("page size %d is not a power of two from 512 to 65536", f.pageSize)
	}
	if h[19] > 2 {
		return fmt.Errorf("file format read version %d: %w", h[19], ErrUnsupported)
	}
	f.usable = f.pageSize - int(h[20])
	if f.usable < 480 {
		return fmt.Errorf("%d reserved bytes leave %d usable bytes per page, under 480", h[20], f.usable)
	}
	if h[21] != 64 || h[22] != 32 || h[23] != 32 {
		return fmt.Errorf("payload fractions %d/%d/%d, not 64/32/32", h[21], h[22], h[23])
	}
	if enc := binary.BigEndian.Uint32(h[56:]); enc != 1 {
		return fmt.Errorf("text encoding %d, not UTF-8: %w", enc, ErrUnsupported)
	}
	f.pages = f.pageCount(h)
	f.schema = binary.BigEndian.Uint32(h[44:])
	return nil
}

// pageCount is the header's page count when it is valid (its
// version-valid-for equals the change counter), else the file's.
func (f *File) pageCount(h []byte) uint32 {
	inFile := uint64(f.size) / uint64(f.pageSize)
	n := uint64(binary.BigEndian.Uint32(h[28:]))
	if n == 0 || binary.BigEndian.Uint32(h[92:]) != binary.BigEndian.Uint32(h[24:]) {
		n = inFile
	}
	return uint32(min(n, inFile, 1<<32-1))
}

// PageSize is the database's page size in bytes.
func (f *File) PageSize() int { return f.pageSize }

// Pages is the database's page count.
func (f *File) Pages() uint32 { return f.pages }

// pageErr names the file and the page of err.
func (f *File) pageErr(page uint32, err error) error {
	return fmt.Errorf("%s page %d: %w", f.name, page, err)
}
