package nvml

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// kindKey and kindValue mark a Parquet file as tpptrace GPU samples.
const (
	kindKey   = "tpptrace.kind"
	kindValue = "nvml-samples"
)

// Formats registers the samples file with the ingest dispatcher.
var Formats = []source.Format{{
	Name:  "nvml-samples",
	About: "GPU samples written by `tpptrace sample` (Parquet, or its .parts directory)",
	Sniff: Sniff,
	Read:  Read,
}}

// Sniff accepts Parquet files that hold tpptrace GPU samples.
func Sniff(path string, head []byte) bool {
	return bytes.HasPrefix(head, []byte("PAR1")) && hasKind(path)
}

func hasKind(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false
	}
	pf, err := openSamples(f, st.Size())
	if err != nil {
		return false
	}
	v, _ := pf.Lookup(kindKey)
	return v == kindValue
}

// Read reads sample files (and the part files of an interrupted run) into
// one trace holding only GPU samples.
func Read(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	var rows []Row
	t := &model.Trace{}
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rs, err := ReadFile(p)
		if err != nil {
			return nil, err
		}
		rows = append(rows, rs...)
	}
	out := ToTrace(rows)
	for _, p := range paths {
		st, _ := os.Stat(p)
		out.Sources = append(out.Sources, model.Source{Path: p, Format: "nvml-samples", Size: sizeOf(st)})
	}
	out.Skipped = t.Skipped
	return out, nil
}

func sizeOf(st os.FileInfo) int64 {
	if st == nil {
		return 0
	}
	return st.Size()
}

// ReadFile reads one samples file, or every part in a ".parts" directory.
func ReadFile(path string) ([]Row, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read samples: %w", err)
	}
	if st.IsDir() {
		return readParts(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read samples: %w", err)
	}
	defer f.Close()
	rows, err := readRows(f, st.Size())
	if err != nil {
		return nil, &source.FileError{Path: path, Offset: -1, Err: err}
	}
	return rows, nil
}

func readParts(dir string) ([]Row, error) {
	parts, err := filepath.Glob(filepath.Join(dir, "part-*.parquet"))
	if err != nil {
		return nil, err
	}
	sort.Strings(parts)
	var rows []Row
	for _, p := range parts {
		rs, err := ReadFile(p)
		if err != nil {
			return nil, err
		}
		rows = append(rows, rs...)
	}
	return rows, nil
}

func readRows(r io.ReaderAt, size int64) ([]Row, error) {
	pf, err := openSamples(r, size)
	if err != nil {
		return nil, err
	}
	if v, _ := pf.Lookup(kindKey); v != kindValue {
		return nil, errors.New("not a tpptrace GPU samples file (no tpptrace.kind=nvml-samples metadata)")
	}
	var rows []Row
	err = guard(func() error { return readBatches(pf, &rows) })
	return rows, err
}

// readBatches appends the rows of pf in batches: a row count the footer
// claims is never allocated up front.
func readBatches(pf *parquet.File, rows *[]Row) error {
	rd := parquet.NewGenericReader[Row](pf)
	defer rd.Close()
	buf := make([]Row, 8192)
	for {
		n, err := rd.Read(buf)
		*rows = append(*rows, buf[:n]...)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("row %d: %w", len(*rows), err)
		}
		if n == 0 {
			return nil
		}
	}
}

// openSamples opens a Parquet file after checking that its footer fits in
// it (parquet-go allocates what a corrupt footer claims), turning a panic
// of parquet-go on a corrupt file into an error.
func openSamples(r io.ReaderAt, size int64) (*parquet.File, error) {
	var tail [8]byte
	if size < 12 {
		return nil, fmt.Errorf("not a readable Parquet file: %d bytes is too short", size)
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil || string(tail[4:]) != "PAR1" || int64(binary.LittleEndian.Uint32(tail[:4])) > size-12 {
		return nil, errors.New("not a readable Parquet file: no footer that fits (truncated?)")
	}
	var pf *parquet.File
	err := guard(func() (err error) {
		pf, err = parquet.OpenFile(r, size)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("not a readable Parquet file: %w", err)
	}
	return pf, nil
}

// guard runs a parquet-go call that may panic on corrupt data and turns
// the panic into an error (as ingest/dataset does): bad input never crashes.
func guard(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt parquet data: %v", p)
		}
	}()
	return fn()
}

// WriteFile writes rows as one complete Parquet samples file.
func WriteFile(path string, rows []Row) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write samples: %w", err)
	}
	if err := writeRows(f, rows); err != nil {
		f.Close()
		return fmt.Errorf("write samples %s: %w", path, err)
	}
	return f.Close()
}

func writeRows(w io.Writer, rows []Row) error {
	rows = slices.Clone(rows)
	sortRows(rows)
	pw := parquet.NewGenericWriter[Row](w, parquet.Compression(&parquet.Zstd),
		parquet.KeyValueMetadata(kindKey, kindValue), parquet.CreatedBy("tpptrace", "1", ""))
	if _, err := pw.Write(rows); err != nil {
		return err
	}
	return pw.Close()
}

func sortRows(rows []Row) {
	slices.SortStableFunc(rows, func(a, b Row) int {
		return cmp.Or(strings.Compare(a.Host, b.Host), cmp.Compare(a.GPUIndex, b.GPUIndex), cmp.Compare(a.TimeNs, b.TimeNs))
	})
}

func sortSamples(s []model.GPUSample) {
	slices.SortStableFunc(s, func(a, b model.GPUSample) int {
		return cmp.Or(cmp.Compare(a.GPU, b.GPU), cmp.Compare(a.TimeNs, b.TimeNs))
	})
}
