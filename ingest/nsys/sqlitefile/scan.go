package sqlitefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Page types of table b-trees.
const (
	interiorTable = 0x05
	leafTable     = 0x0D
)

// maxDepth bounds a b-tree's depth (a real one of 2^32 pages is under 10
// levels deep at the smallest fan-out).
const maxDepth = 64

// Table says what to read of one rowid table.
type Table struct {
	Root uint32 // the root page (sqlite_master.rootpage)
	// Fields is, for each column of a Row, the index of the record field
	// it reads (the table column's position), or -1 for none (NULL).
	Fields []int
	// Rowid is the field that is an alias of the rowid (an INTEGER PRIMARY
	// KEY column, stored as NULL), -1 for none.
	Rowid int
	// Real marks the columns of REAL affinity (RealAffinity), whose
	// integral values SQLite stores as integers and reads as floats; nil
	// for none.
	Real []bool
}

// RealAffinity reports whether a column declared with type decl has REAL
// affinity (the file format's rules: no INT, CHAR, CLOB, TEXT or BLOB in
// it, and REAL, FLOA or DOUB).
func RealAffinity(decl string) bool {
	d := strings.ToUpper(decl)
	for _, s := range []string{"INT", "CHAR", "CLOB", "TEXT", "BLOB"} {
		if strings.Contains(d, s) {
			return false
		}
	}
	return d != "" && (strings.Contains(d, "REAL") || strings.Contains(d, "FLOA") || strings.Contains(d, "DOUB"))
}

// level is one page on the path from the root to the current page.
type level struct {
	page  uint32
	buf   []byte
	hdr   int // offset of the b-tree page header (100 on page 1)
	cells int
	next  int // the next child to visit; cells: the right-most pointer
}

// Scanner reads tables of one file with buffers reused from scan to scan.
// It is not safe for concurrent use.
type Scanner struct {
	f       *File
	bufs    [][]byte // one page buffer per depth
	over    []byte   // an overflow page
	payload []byte   // a payload that spills onto overflow pages
	seen    []uint64 // the b-tree pages visited in this scan
	row     Row
	ahead   []byte // pages read ahead: a table's pages mostly follow each other
	first   uint32 // the page number of ahead's first page, 0 none
	pooled  *[readAhead]byte
}

// readAhead is the most bytes of pages one read fetches.
const readAhead = 64 << 10

// readPage copies page n into buf. Reads follow the scan: a page right
// after the last one read doubles the pages fetched by one read (up to
// readAhead bytes), any other page is read alone, so that small tables
// and interior pages cost no more than their pages.
func (s *Scanner) readPage(n uint32, buf []byte) error {
	ps := uint32(s.f.pageSize)
	if s.first == 0 || n < s.first || n-s.first >= uint32(len(s.ahead))/ps {
		if err := s.fetch(n); err != nil {
			return err
		}
	}
	off := (n - s.first) * ps
	copy(buf[:ps], s.ahead[off:off+ps])
	return nil
}

// fetch reads page n and the pages after it into s.ahead.
func (s *Scanner) fetch(n uint32) error {
	if n < 1 || n > s.f.pages {
		return s.f.pageErr(n, fmt.Errorf("page number out of range 1..%d", s.f.pages))
	}
	ps := uint32(s.f.pageSize)
	k := uint32(1)
	if s.first != 0 && n == s.first+uint32(len(s.ahead))/ps {
		k = min(2*uint32(len(s.ahead))/ps, max(readAhead/ps, 1))
	}
	k = min(k, s.f.pages-n+1)
	if cap(s.ahead) < int(k*ps) {
		s.grow(int(k * ps))
	}
	s.ahead, s.first = s.ahead[:k*ps], 0
	if got, err := s.f.r.ReadAt(s.ahead, int64(n-1)*int64(ps)); got < len(s.ahead) {
		s.ahead = s.ahead[:0]
		return s.f.pageErr(n, fmt.Errorf("read: %w", cmpErr(err)))
	}
	s.first = n
	return nil
}

// aheadPool holds read-ahead buffers of readAhead bytes between scanners
// (an export per rank is small: one buffer each was most of what reading
// it allocated).
var aheadPool = sync.Pool{New: func() any { return new([readAhead]byte) }}

// grow gives s.ahead room for n bytes.
func (s *Scanner) grow(n int) {
	if n > readAhead {
		s.ahead = make([]byte, n) // one page larger than readAhead
		return
	}
	if s.pooled == nil {
		s.pooled = aheadPool.Get().(*[readAhead]byte)
	}
	s.ahead = s.pooled[:0]
}

// Release hands the scanner's buffers back for other scanners; s may not
// be used after.
func (s *Scanner) Release() {
	if s.pooled != nil {
		aheadPool.Put(s.pooled)
	}
	*s = Scanner{}
}

// NewScanner returns a scanner of f.
func NewScanner(f *File) *Scanner { return &Scanner{f: f} }

// Scan calls fn with every row of t in rowid order and stops at fn's first
// error, which it returns. The Row is reused: its values are valid until
// fn returns.
func (s *Scanner) Scan(t Table, fn func(*Row) error) error {
	if err := s.row.setTable(t); err != nil {
		return fmt.Errorf("%s: table at page %d: %w", s.f.name, t.Root, err)
	}
	s.unsee()
	path := make([]level, 0, 8)
	p, err := s.visit(t.Root, 0)
	if err != nil {
		return err
	}
	path = append(path, p)
	for len(path) > 0 {
		if path, err = s.step(path, fn); err != nil {
			return err
		}
	}
	return nil
}

// unsee clears the record of the pages visited, for a new walk.
func (s *Scanner) unsee() {
	words := int(s.f.pages/64) + 1
	if cap(s.seen) < words {
		s.seen = make([]uint64, words)
	}
	s.seen = s.seen[:words]
	clear(s.seen)
}

// step reads the leaf at the end of path or descends to the next child of
// the interior page there, and returns the path to go on from.
func (s *Scanner) step(path []level, fn func(*Row) error) ([]level, error) {
	top := &path[len(path)-1]
	if top.buf[top.hdr] == leafTable {
		return path[:len(path)-1], s.leaf(top, fn)
	}
	if top.next > top.cells {
		return path[:len(path)-1], nil
	}
	child, err := s.child(top)
	if err != nil {
		return nil, err
	}
	top.next++
	if len(path) >= maxDepth {
		return nil, s.f.pageErr(child, fmt.Errorf("b-tree deeper than %d levels", maxDepth))
	}
	p, err := s.visit(child, len(path))
	if err != nil {
		return nil, err
	}
	return append(path, p), nil
}

// visit reads b-tree page n into the buffer of depth d and checks its
// header.
func (s *Scanner) visit(n uint32, d int) (level, error) {
	if n < 1 || n > s.f.pages {
		return level{}, s.f.pageErr(n, fmt.Errorf("page number out of range 1..%d", s.f.pages))
	}
	if s.seen[n/64]&(1<<(n%64)) != 0 {
		return level{}, s.f.pageErr(n, errors.New("page reached twice (a cycle in the b-tree)"))
	}
	s.seen[n/64] |= 1 << (n % 64)
	buf, err := s.page(n, d)
	if err != nil {
		return level{}, err
	}
	p := level{page: n, buf: buf[:s.f.usable]}
	if n == 1 {
		p.hdr = headerSize
	}
	if err := p.check(); err != nil {
		return level{}, s.f.pageErr(n, err)
	}
	return p, nil
}

// page is b-tree page n, read into the buffer of depth d, or in place in
// a file held in memory (n is in range).
func (s *Scanner) page(n uint32, d int) ([]byte, error) {
	ps := int64(s.f.pageSize)
	if s.f.mem != nil {
		off := int64(n-1) * ps
		return s.f.mem[off : off+ps], nil
	}
	for len(s.bufs) <= d {
		s.bufs = append(s.bufs, make([]byte, ps))
	}
	return s.bufs[d], s.readPage(n, s.bufs[d])
}

// check validates the page type and that the cell pointer array fits.
func (p *level) check() error {
	t := p.buf[p.hdr]
	size := 8
	switch t {
	case leafTable:
	case interiorTable:
		size = 12
	default:
		return fmt.Errorf("page type 0x%02x is not a table b-tree page (an index, a WITHOUT ROWID table or a damaged page)", t)
	}
	p.cells = int(binary.BigEndian.Uint16(p.buf[p.hdr+3:]))
	if p.hdr+size+2*p.cells > len(p.buf) {
		return fmt.Errorf("%d cells do not fit in the page", p.cells)
	}
	return nil
}

// cell is the offset of cell i, checked to lie in the page after the cell
// pointer array.
func (p *level) cell(i int) (int, error) {
	size := 8
	if p.buf[p.hdr] == interiorTable {
		size = 12
	}
	start := p.hdr + size + 2*p.cells
	off := int(binary.BigEndian.Uint16(p.buf[p.hdr+size+2*i:]))
	if off < start || off >= len(p.buf) {
		return 0, fmt.Errorf("cell %d at offset %d outside the cell content area %d..%d", i, off, start, len(p.buf))
	}
	return off, nil
}

// child is the page number of the interior page's next child.
func (s *Scanner) child(p *level) (uint32, error) {
	if p.next == p.cells {
		return binary.BigEndian.Uint32(p.buf[p.hdr+8:]), nil
	}
	off, err := p.cell(p.next)
	if err != nil {
		return 0, s.f.pageErr(p.page, err)
	}
	if off+4 > len(p.buf) {
		return 0, s.f.pageErr(p.page, fmt.Errorf("cell %d truncated", p.next))
	}
	return binary.BigEndian.Uint32(p.buf[off:]), nil
}

// leaf calls fn with the rows of a leaf page.
func (s *Scanner) leaf(p *level, fn func(*Row) error) error {
	for i := 0; i < p.cells; i++ {
		off, err := p.cell(i)
		if err != nil {
			return s.f.pageErr(p.page, err)
		}
		if err := s.leafCell(p, i, off); err != nil {
			return s.f.pageErr(p.page, fmt.Errorf("cell %d: %w", i, err))
		}
		if err := fn(&s.row); err != nil {
			return err
		}
	}
	return nil
}

// leafCell decodes the cell at off: its rowid and its record, read from
// the page or gathered from the overflow chain.
func (s *Scanner) leafCell(p *level, i, off int) error {
	b := p.buf[off:]
	size, n := uvarint(b)
	if n == 0 {
		return errors.New("truncated payload size")
	}
	rowid, m := uvarint(b[n:])
	if m == 0 {
		return errors.New("truncated rowid")
	}
	b = b[n+m:]
	local := s.localSize(size)
	if uint64(local) == size {
		if size > uint64(len(b)) {
			return fmt.Errorf("payload of %d bytes overruns the page", size)
		}
		return s.row.decode(int64(rowid), b[:size])
	}
	rec, err := s.spilled(b, size, local)
	if err != nil {
		return err
	}
	return s.row.decode(int64(rowid), rec)
}

// localSize is how many bytes of a payload of size bytes a table leaf cell
// holds on its page (the file format's rule).
func (s *Scanner) localSize(size uint64) int {
	u := uint64(s.f.usable)
	x := u - 35
	if size <= x {
		return int(size)
	}
	m := (u-12)*32/255 - 23
	k := m + (size-m)%(u-4)
	if k <= x {
		return int(k)
	}
	return int(m)
}

// spilled gathers a payload of size bytes whose first local bytes are on
// the page (b), followed by the first overflow page's number.
func (s *Scanner) spilled(b []byte, size uint64, local int) ([]byte, error) {
	if size > uint64(s.f.size) {
		return nil, fmt.Errorf("payload of %d bytes is larger than the file", size)
	}
	if local+4 > len(b) {
		return nil, errors.New("local payload overruns the page")
	}
	if cap(s.payload) < int(size) {
		s.payload = make([]byte, 0, size)
	}
	out := append(s.payload[:0], b[:local]...)
	next := binary.BigEndian.Uint32(b[local:])
	if s.over == nil {
		s.over = make([]byte, s.f.pageSize)
	}
	for len(out) < int(size) {
		if next == 0 {
			return nil, fmt.Errorf("overflow chain ends %d bytes short", int(size)-len(out))
		}
		if err := s.readPage(next, s.over); err != nil {
			return nil, fmt.Errorf("overflow: %w", err)
		}
		next = binary.BigEndian.Uint32(s.over)
		out = append(out, s.over[4:min(s.f.usable, 4+int(size)-len(out))]...)
	}
	s.payload = out
	return out, nil
}

// uvarint decodes an SQLite varint (big-endian, 7 bits a byte, the ninth
// byte whole); n is 0 when b is too short.
func uvarint(b []byte) (v uint64, n int) {
	for i := 0; i < 8; i++ {
		if i >= len(b) {
			return 0, 0
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}

// cmpErr is err, or io.ErrUnexpectedEOF for a short read without one.
func cmpErr(err error) error {
	if err == nil || err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
