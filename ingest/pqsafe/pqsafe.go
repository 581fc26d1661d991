// Package pqsafe reads untrusted Parquet files safely: the checks every
// tpptrace reader of Parquet (the dataset, op tables, GPU samples) runs
// before and around parquet-go, which allocates what a corrupt footer
// claims, grows its LZ4 decoder without bound on corrupt pages and panics
// on some corrupt footers and pages.
package pqsafe

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// MaxChunkBytes bounds a column chunk's uncompressed size: no dataset we
// write comes near it, and a corrupt footer claiming more would make the
// decoders allocate it.
const MaxChunkBytes = 1 << 30

// CheckFooter checks the magic bytes and that the footer length fits in
// the file: parquet-go allocates whatever length a corrupt footer claims
// (up to 4 GiB) before it finds that the file is too short.
func CheckFooter(r io.ReaderAt, size int64) error {
	var tail [8]byte
	if size < 12 {
		return fmt.Errorf("%d bytes is too short", size)
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(tail[4:]) != "PAR1" {
		return fmt.Errorf("no PAR1 magic at the end (truncated?)")
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("footer length %d does not fit in %d bytes (truncated?)", n, size)
	}
	return nil
}

// Guard runs a parquet-go call that may panic on a corrupt file and turns
// the panic into an error. It is the one place that recovers: parquet-go
// panics on some corrupt footers and pages and on column layouts that do not
// match the row type, and a bad file must give an error, not a crash.
func Guard(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt or unexpected parquet data: %v", p)
		}
	}()
	return fn()
}

// CheckChunks rejects column chunks whose codec is not one tpptrace or the
// common engines write (parquet-go's LZ4 decoder doubles its buffer without
// bound on corrupt input), or whose claimed uncompressed size is absurd.
func CheckChunks(md *format.FileMetaData, fileSize int64) error {
	for i, rg := range md.RowGroups {
		for _, cc := range rg.Columns {
			m := cc.MetaData
			switch m.Codec {
			case format.Uncompressed, format.Snappy, format.Gzip, format.Zstd:
			default:
				return fmt.Errorf("row group %d column %v: codec %v is not supported (write zstd, snappy, gzip or none)", i, m.PathInSchema, m.Codec)
			}
			if m.TotalUncompressedSize < 0 || m.TotalUncompressedSize > MaxChunkBytes {
				return fmt.Errorf("row group %d column %v claims %d uncompressed bytes in a %d-byte file", i, m.PathInSchema, m.TotalUncompressedSize, fileSize)
			}
		}
	}
	return nil
}

// Open opens an untrusted Parquet file of size bytes: the footer, codec,
// chunk and page checks first, parquet-go's panics turned into errors.
func Open(r io.ReaderAt, size int64) (*parquet.File, error) {
	if err := CheckFooter(r, size); err != nil {
		return nil, err
	}
	var pf *parquet.File
	err := Guard(func() (err error) {
		pf, err = parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := CheckChunks(pf.Metadata(), size); err != nil {
		return nil, err
	}
	if err := CheckPages(r, pf.Metadata(), size); err != nil {
		return nil, err
	}
	return pf, nil
}
