package pqsafe

import (
	"errors"
	"fmt"
)

// Page types of a PageHeader (Parquet's PageType).
const (
	DataPage       = 0
	DictionaryPage = 2
	DataPageV2     = 3
)

// PageHeader is what a reader needs of a Parquet page header: the page's
// sizes and checksum, and its data (v1, v2) or dictionary header's counts
// and encoding. Fields a header does not have are zero, except
// IsCompressed, which is true unless a v2 header says false.
type PageHeader struct {
	Type                         int32
	UncompressedSize             int32
	CompressedSize               int32
	CRC                          int32
	NumValues                    int32 // of the data or dictionary page header
	Encoding                     int32
	NumNulls, NumRows            int32 // v2
	DefLevelBytes, RepLevelBytes int32 // v2
	IsCompressed                 bool
	HasData                      bool // a data, v2 or dictionary header was there
}

// ReadPageHeader decodes the page header at the start of b (Thrift's
// compact protocol, bounds-checked as CheckPages reads it) and returns it
// with its length in bytes. The page body's size is checked against
// MaxPageBytes and against what is left of b; an error otherwise.
func ReadPageHeader(b []byte) (PageHeader, int, error) {
	h := PageHeader{IsCompressed: true}
	c := &compact{b: b}
	err := c.fields(func(id int16, typ byte) (bool, error) {
		switch {
		case id >= 1 && id <= 4 && typ == 5:
			v, err := c.i32()
			switch id {
			case 1:
				h.Type = v
			case 2:
				h.UncompressedSize = v
			case 3:
				h.CompressedSize = v
			default:
				h.CRC = v
			}
			return true, err
		case (id == 5 || id == 7 || id == 8) && typ == 12:
			h.HasData = true
			return true, c.pageFields(&h, id)
		}
		return false, nil
	})
	switch {
	case err != nil:
		return h, 0, err
	case h.UncompressedSize < 0 || h.UncompressedSize > MaxPageBytes:
		return h, 0, fmt.Errorf("a page claims %d bytes uncompressed (at most %d)", h.UncompressedSize, MaxPageBytes)
	case h.CompressedSize < 0 || int(h.CompressedSize) > len(b)-c.i:
		return h, 0, fmt.Errorf("a page claims %d bytes, %d are left", h.CompressedSize, len(b)-c.i)
	case !h.HasData:
		return h, 0, errors.New("no data or dictionary page header")
	}
	return h, c.i, nil
}

// pageFields reads a data (5), dictionary (7) or data v2 (8) page header
// struct into h.
func (c *compact) pageFields(h *PageHeader, kind int16) error {
	return c.fields(func(id int16, typ byte) (bool, error) {
		if kind == 8 && id == 7 && (typ == 1 || typ == 2) {
			h.IsCompressed = typ == 1
			return true, nil
		}
		if typ != 5 {
			return false, nil
		}
		var dst *int32
		switch {
		case id == 1:
			dst = &h.NumValues
		case id == 2 && kind != 8 || id == 4 && kind == 8:
			dst = &h.Encoding
		case kind == 8 && id == 2:
			dst = &h.NumNulls
		case kind == 8 && id == 3:
			dst = &h.NumRows
		case kind == 8 && id == 5:
			dst = &h.DefLevelBytes
		case kind == 8 && id == 6:
			dst = &h.RepLevelBytes
		default:
			return false, nil
		}
		v, err := c.i32()
		*dst = v
		return true, err
	})
}

// i32 reads a zigzag varint as an int32 (Thrift's i32).
func (c *compact) i32() (int32, error) {
	v, err := c.varint()
	return int32(uint32(v>>1) ^ -uint32(v&1)), err
}
