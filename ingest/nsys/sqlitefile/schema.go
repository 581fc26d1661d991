package sqlitefile

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// MasterRow is one row of sqlite_master, the schema table on page 1.
type MasterRow struct {
	Type, Name, TblName string
	Root                int64 // rootpage: 0 for views, triggers and virtual tables
	SQL                 string
	HasSQL              bool // sql is not NULL
}

// master is sqlite_master's layout: type, name, tbl_name, rootpage, sql.
var master = Table{Root: 1, Fields: []int{0, 1, 2, 3, 4}, Rowid: -1}

// Master returns the rows of sqlite_master in rowid order. A schema format
// other than 1 to 4 (0 in an empty database) is an error wrapping
// ErrUnsupported, as SQLite refuses it.
func (s *Scanner) Master() ([]MasterRow, error) {
	if s.f.schema > 4 {
		return nil, fmt.Errorf("%s: schema format %d: %w", s.f.name, s.f.schema, ErrUnsupported)
	}
	var out []MasterRow
	err := s.Scan(master, func(r *Row) error {
		out = append(out, MasterRow{Type: r.ColumnText(0), Name: r.ColumnText(1), TblName: r.ColumnText(2),
			Root: r.ColumnInt64(3), SQL: r.ColumnText(4), HasSQL: r.ColumnType(4) != Null})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// LastRowid is the largest rowid of the table at page root, as SQLite's
// MAX(rowid) gives it: the last cell of the right-most leaf. ok is false
// for an empty table.
func (s *Scanner) LastRowid(root uint32) (rowid int64, ok bool, err error) {
	s.unsee()
	n := root
	for d := 0; d < maxDepth; d++ {
		p, err := s.visit(n, 0)
		if err != nil {
			return 0, false, err
		}
		if p.buf[p.hdr] == leafTable {
			return s.lastCell(&p)
		}
		n = binary.BigEndian.Uint32(p.buf[p.hdr+8:])
	}
	return 0, false, s.f.pageErr(n, fmt.Errorf("b-tree deeper than %d levels", maxDepth))
}

// lastCell is the rowid of a leaf's last cell.
func (s *Scanner) lastCell(p *level) (int64, bool, error) {
	if p.cells == 0 {
		return 0, false, nil
	}
	off, err := p.cell(p.cells - 1)
	if err != nil {
		return 0, false, s.f.pageErr(p.page, err)
	}
	b := p.buf[off:]
	_, n := uvarint(b)
	rowid, m := uvarint(b[n:])
	if n == 0 || m == 0 {
		return 0, false, s.f.pageErr(p.page, errors.New("truncated cell"))
	}
	return int64(rowid), true, nil
}
