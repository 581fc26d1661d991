package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// readBatch is how many rows a reader decodes at a time.
const readBatch = 8192

// openParquet opens path and checks its footer and schema version. Only the
// footer is read here; parquet.OpenFile returns errors for bad footers where
// parquet.NewGenericReader would panic.
func openParquet(path string) (*parquet.File, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	pf, err := openParquetReader(f, fi.Size())
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return pf, f.Close, nil
}

func openParquetReader(r io.ReaderAt, size int64) (*parquet.File, error) {
	if err := checkFooter(r, size); err != nil {
		return nil, fmt.Errorf("not a readable parquet file: %w", err)
	}
	var pf *parquet.File
	err := guard(func() (err error) {
		pf, err = parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("not a readable parquet file: %w", err)
	}
	if err := checkChunks(pf.Metadata(), size); err != nil {
		return nil, fmt.Errorf("not a readable parquet file: %w", err)
	}
	if v, ok := pf.Lookup(metaSchemaVersion); ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("bad %s %q", metaSchemaVersion, v)
		}
		if n > SchemaVersion {
			return nil, fmt.Errorf("%w: file version %d, supported %d", ErrNewerSchema, n, SchemaVersion)
		}
	}
	return pf, nil
}

// checkFooter checks the magic bytes and that the footer length fits in
// the file: parquet-go allocates whatever length a corrupt footer claims
// (up to 4 GiB) before it finds that the file is too short.
func checkFooter(r io.ReaderAt, size int64) error {
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

// guard runs a parquet-go call that may panic on a corrupt file and turns
// the panic into an error. It is the one place that recovers: parquet-go
// panics on some corrupt footers and pages and on column layouts that do not
// match the row type, and a bad file must give an error, not a crash.
func guard(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt or unexpected parquet data: %v", p)
		}
	}()
	return fn()
}

// readAll decodes every row of pf, calling fn for each batch.
func readAll[T any](pf *parquet.File, fn func([]T)) error {
	return guard(func() error { return readRows(pf, fn) })
}

func readRows[T any](pf *parquet.File, fn func([]T)) error {
	r := parquet.NewGenericReader[T](pf)
	defer r.Close()
	buf := make([]T, min(readBatch, max(r.NumRows(), 1)))
	for {
		n, err := r.Read(buf)
		fn(buf[:n])
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readFile reads every row of the Parquet file at path.
func readFile[T any](path string) ([]T, error) {
	pf, closeFile, err := openParquet(path)
	if err != nil {
		return nil, err
	}
	defer closeFile()
	var rows []T
	if err := readAll(pf, func(b []T) { rows = append(rows, b...) }); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

// maxChunkBytes bounds a column chunk's uncompressed size: no dataset we
// write comes near it, and a corrupt footer claiming more would make the
// decoders allocate it.
const maxChunkBytes = 1 << 30

// checkChunks rejects column chunks whose codec is not one tpptrace or the
// common engines write (parquet-go's LZ4 decoder doubles its buffer without
// bound on corrupt input), or whose claimed uncompressed size is absurd.
func checkChunks(md *format.FileMetaData, fileSize int64) error {
	for i, rg := range md.RowGroups {
		for _, cc := range rg.Columns {
			m := cc.MetaData
			switch m.Codec {
			case format.Uncompressed, format.Snappy, format.Gzip, format.Zstd:
			default:
				return fmt.Errorf("row group %d column %v: codec %v is not supported (write zstd, snappy, gzip or none)", i, m.PathInSchema, m.Codec)
			}
			if m.TotalUncompressedSize < 0 || m.TotalUncompressedSize > maxChunkBytes {
				return fmt.Errorf("row group %d column %v claims %d uncompressed bytes in a %d-byte file", i, m.PathInSchema, m.TotalUncompressedSize, fileSize)
			}
		}
	}
	return nil
}
