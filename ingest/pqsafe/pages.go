package pqsafe

import (
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/format"
)

// CheckPages walks every page header of every column chunk with a
// bounds-checked reader of Thrift's compact protocol before parquet-go
// decodes them: parquet-go allocates whatever length a corrupt header's
// binary field claims (gigabytes from a few bytes of a small file). Every
// length must fit in what is left of its chunk, every page in its chunk,
// and every chunk in the file.
func CheckPages(r io.ReaderAt, md *format.FileMetaData, fileSize int64) error {
	for i, rg := range md.RowGroups {
		for _, cc := range rg.Columns {
			if err := checkChunkPages(r, &cc.MetaData, fileSize); err != nil {
				return fmt.Errorf("row group %d column %v: %w", i, cc.MetaData.PathInSchema, err)
			}
		}
	}
	return nil
}

func checkChunkPages(r io.ReaderAt, m *format.ColumnMetaData, fileSize int64) error {
	start := m.DataPageOffset
	if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
		start = m.DictionaryPageOffset
	}
	size := m.TotalCompressedSize
	if start < 0 || size < 0 || size > MaxChunkBytes || start > fileSize-size {
		return fmt.Errorf("chunk of %d bytes at %d does not fit in a %d-byte file", size, start, fileSize)
	}
	buf, err := chunkBytes(r, start, size)
	if err != nil {
		return err
	}
	for off := 0; off < len(buf); {
		c := &compact{b: buf, i: off, values: m.NumValues}
		body, err := c.pageHeader()
		if err != nil {
			return fmt.Errorf("page header at %d: %w", start+int64(off), err)
		}
		if body < 0 || body > len(buf)-c.i {
			return fmt.Errorf("page at %d claims %d bytes, %d are left in its chunk", start+int64(off), body, len(buf)-c.i)
		}
		off = c.i + body
	}
	return nil
}

// Bytes is an io.ReaderAt over a file held in memory that can lend its
// bytes: CheckPages walks a chunk's page headers in place instead of
// copying the chunk.
type Bytes interface {
	io.ReaderAt
	// Slice returns bytes [off, off+n) of the file, which must not be
	// modified, or false when they are not all there.
	Slice(off, n int64) ([]byte, bool)
}

// chunkBytes returns the size bytes at start: lent when r is Bytes, else
// read into a new buffer.
func chunkBytes(r io.ReaderAt, start, size int64) ([]byte, error) {
	if b, ok := r.(Bytes); ok {
		if s, ok := b.Slice(start, size); ok {
			return s, nil
		}
	}
	buf := make([]byte, size)
	if _, err := r.ReadAt(buf, start); err != nil {
		return nil, err
	}
	return buf, nil
}

// compact reads Thrift's compact protocol from b, never past its end.
type compact struct {
	b      []byte
	i      int
	depth  int
	values int64 // the chunk's values: no page may claim more
}

var errShort = errors.New("runs past the end of its chunk")

// MaxPageBytes bounds a page's uncompressed size, which parquet-go
// allocates before decompressing: writers cut pages near 1 MiB.
const MaxPageBytes = 64 << 20

// pageHeader skips one PageHeader struct and returns its field 3,
// compressed_page_size (the body that follows it), after checking field
// 2, uncompressed_page_size, against MaxPageBytes.
func (c *compact) pageHeader() (int, error) {
	body, full := -1, -1
	err := c.fields(func(id int16, typ byte) (bool, error) {
		if (id == 5 || id == 7 || id == 8) && typ == 12 {
			return true, c.pageCounts() // data, dictionary and data v2 headers
		}
		if id != 2 && id != 3 || typ != 5 {
			return false, nil
		}
		v, err := c.varint()
		n := int(int32(uint32(v>>1) ^ -uint32(v&1)))
		if id == 3 {
			body = n
		} else {
			full = n
		}
		return true, err
	})
	switch {
	case err != nil:
		return 0, err
	case body < 0 || full < 0:
		return 0, errors.New("no page sizes")
	case full > MaxPageBytes:
		return 0, fmt.Errorf("a page claims %d bytes uncompressed (at most %d)", full, MaxPageBytes)
	}
	return body, nil
}

// pageCounts reads a data (v1, v2) or dictionary page header and checks
// its value and row counts (fields 1, and 3 of v2) against the chunk's:
// parquet-go sizes its buffers by them.
func (c *compact) pageCounts() error {
	return c.fields(func(id int16, typ byte) (bool, error) {
		if id != 1 && id != 3 || typ != 5 {
			return false, nil
		}
		v, err := c.varint()
		if n := int64(int32(uint32(v>>1) ^ -uint32(v&1))); err == nil && (n < 0 || n > c.values) {
			return true, fmt.Errorf("a page claims %d values, its chunk has %d", n, c.values)
		}
		return true, err
	})
}

// fields walks a struct's fields up to its stop byte; take may read a
// field itself (returning true), else the field is skipped.
func (c *compact) fields(take func(id int16, typ byte) (bool, error)) error {
	if c.depth++; c.depth > 32 {
		return errors.New("nested too deep")
	}
	defer func() { c.depth-- }()
	var id int16
	for {
		h, err := c.byte()
		if err != nil || h == 0 {
			return err
		}
		typ := h & 0x0f
		if d := int16(h >> 4); d != 0 {
			id += d
		} else {
			v, err := c.varint()
			if err != nil {
				return err
			}
			id = int16(int64(v>>1) ^ -int64(v&1))
		}
		if done, err := take(id, typ); err != nil || done {
			if err != nil {
				return err
			}
			continue
		}
		if err := c.skip(typ); err != nil {
			return err
		}
	}
}

// skip passes over one value of type typ.
func (c *compact) skip(typ byte) error {
	switch typ {
	case 1, 2: // booleans live in the type
		return nil
	case 3:
		_, err := c.byte()
		return err
	case 4, 5, 6:
		_, err := c.varint()
		return err
	case 7:
		return c.advance(8)
	case 8:
		n, err := c.varint()
		if err != nil {
			return err
		}
		return c.advance(n)
	case 9, 10:
		return c.list()
	case 11:
		return c.mapValue()
	case 12:
		return c.fields(func(int16, byte) (bool, error) { return false, nil })
	}
	return fmt.Errorf("unknown compact type %d", typ)
}

func (c *compact) list() error {
	h, err := c.byte()
	if err != nil {
		return err
	}
	n := uint64(h >> 4)
	if n == 15 {
		if n, err = c.varint(); err != nil {
			return err
		}
	}
	return c.repeat(n, func() error { return c.skip(h & 0x0f) })
}

func (c *compact) mapValue() error {
	n, err := c.varint()
	if err != nil || n == 0 {
		return err
	}
	kv, err := c.byte()
	if err != nil {
		return err
	}
	return c.repeat(n, func() error {
		if err := c.skip(kv >> 4); err != nil {
			return err
		}
		return c.skip(kv & 0x0f)
	})
}

// repeat runs fn n times; every element takes at least one byte (or none,
// for booleans), so n is bounded by the bytes left.
func (c *compact) repeat(n uint64, fn func() error) error {
	if n > uint64(len(c.b)-c.i)*8+8 {
		return errShort
	}
	for range n {
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}

func (c *compact) byte() (byte, error) {
	if c.i >= len(c.b) {
		return 0, errShort
	}
	c.i++
	return c.b[c.i-1], nil
}

func (c *compact) varint() (uint64, error) {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		b, err := c.byte()
		if err != nil {
			return 0, err
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("varint too long")
}

func (c *compact) advance(n uint64) error {
	if n > uint64(len(c.b)-c.i) {
		return errShort
	}
	c.i += int(n)
	return nil
}
