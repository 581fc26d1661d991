package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/tpptrace/tpptrace/ingest/pqsafe"
	"io"
	"os"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// readBatch is how many rows a reader decodes at a time.
const readBatch = 8192

// wholeFileMax is the largest file openParquet reads into memory at once
// (one read instead of a read per few KiB of pages and headers: a cache
// entry's files are tens of KiB each).
const wholeFileMax = 8 << 20

// openParquet opens path and checks its footer and schema version. Only the
// footer is read here; parquet.OpenFile returns errors for bad footers where
// parquet.NewGenericReader would panic. A file of at most wholeFileMax bytes
// is read whole and closed at once.
func openParquet(path string) (*parquet.File, func() error, error) {
	pf, _, closeFile, err := openParquetBytes(path, nil)
	return pf, closeFile, err
}

// openParquetBytes is openParquet that also returns the file's bytes when
// it was read whole (nil otherwise), into buf when it has room (the caller
// then must not reuse buf while pf is in use).
func openParquetBytes(path string, buf []byte) (*parquet.File, []byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	var r io.ReaderAt = f
	var whole []byte
	closeFile := f.Close
	if fi.Size() <= wholeFileMax {
		b, err := readWhole(f, fi.Size(), buf)
		f.Close()
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		r, closeFile, whole = memFile{bytes.NewReader(b), b}, func() error { return nil }, b
	}
	pf, err := openParquetReader(r, fi.Size())
	if err != nil {
		closeFile()
		return nil, nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return pf, whole, closeFile, nil
}

// memFile is a file read whole: a reader, and its bytes lent to pqsafe's
// page check (pqsafe.Bytes).
type memFile struct {
	*bytes.Reader
	b []byte
}

func (m memFile) Slice(off, n int64) ([]byte, bool) {
	if off < 0 || n < 0 || off > int64(len(m.b))-n {
		return nil, false
	}
	return m.b[off : off+n : off+n], true
}

// readWhole reads the size bytes of f, into buf when it has room; a file
// that is shorter now than its size said is an error.
func readWhole(f *os.File, size int64, buf []byte) ([]byte, error) {
	b := buf[:0]
	if int64(cap(buf)) < size {
		b = make([]byte, size)
	}
	b = b[:size]
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return b, nil
}

func openParquetReader(r io.ReaderAt, size int64) (*parquet.File, error) {
	pf, err := pqsafe.Open(r, size)
	if err != nil {
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

// fileVersion is the schema version in pf's key-value metadata, which
// openParquet checked; 1, the first, when there is none.
func fileVersion(pf *parquet.File) int {
	v, _ := pf.Lookup(metaSchemaVersion)
	n, err := strconv.Atoi(v)
	if err != nil {
		return 1
	}
	return n
}

// readAll decodes every row of pf, calling fn for each batch.
func readAll[T any](pf *parquet.File, fn func([]T)) error {
	return pqsafe.Guard(func() error { return readRows(pf, fn) })
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
