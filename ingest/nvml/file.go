package nvml

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/tpptrace/tpptrace/ingest/pqsafe"
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
// one trace holding only GPU samples. Rows go straight into the trace's
// samples, batch by batch, so memory is the samples kept. A file that
// cannot be read is skipped with a record and a warning while another can.
func Read(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	sk := newSink()
	var errs []error
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := eachFile(p, sk.add); err != nil {
			errs = append(errs, err)
			sk.t.Skip(p, -1, "", "%s", strings.TrimPrefix(err.Error(), p+": "))
			if opts.Warn != nil {
				opts.Warn("skipping " + err.Error())
			}
			continue
		}
		st, _ := os.Stat(p)
		sk.t.Sources = append(sk.t.Sources, model.Source{Path: p, Format: "nvml-samples", Size: sizeOf(st)})
	}
	if len(sk.t.Sources) == 0 && len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sortSamples(sk.t.Samples)
	return sk.t, nil
}

func sizeOf(st os.FileInfo) int64 {
	if st == nil {
		return 0
	}
	return st.Size()
}

// ReadFile reads one samples file, or every part in a ".parts" directory.
func ReadFile(path string) ([]Row, error) {
	var rows []Row
	err := eachFile(path, func(b []Row, _ int64) { rows = append(rows, b...) })
	return rows, err
}

// eachFile calls fn with the rows of one samples file (or of every part of
// a ".parts" directory), batch by batch, with a capacity hint first.
func eachFile(path string, fn func(rows []Row, hint int64)) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("read samples: %w", err)
	}
	if st.IsDir() {
		return eachPart(path, fn)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read samples: %w", err)
	}
	defer f.Close()
	if err := eachRows(f, st.Size(), fn); err != nil {
		return &source.FileError{Path: path, Offset: -1, Err: err}
	}
	return nil
}

func eachPart(dir string, fn func([]Row, int64)) error {
	parts, err := filepath.Glob(filepath.Join(dir, "part-*.parquet"))
	if err != nil {
		return err
	}
	sort.Strings(parts)
	for _, p := range parts {
		if err := eachFile(p, fn); err != nil {
			return err
		}
	}
	return nil
}

func eachRows(r io.ReaderAt, size int64, fn func([]Row, int64)) error {
	pf, err := openSamples(r, size)
	if err != nil {
		return err
	}
	if v, _ := pf.Lookup(kindKey); v != kindValue {
		return errors.New("not a tpptrace GPU samples file (no tpptrace.kind=nvml-samples metadata)")
	}
	fn(nil, min(pf.NumRows(), 64*size)) // the footer's count, bounded by what the file can hold
	return pqsafe.Guard(func() error { return readBatches(pf, func(b []Row) { fn(b, 0) }) })
}

// readBatches calls fn with the rows of pf in batches of 8192, reusing
// one buffer: a row count the footer claims is never allocated up front.
func readBatches(pf *parquet.File, fn func([]Row)) error {
	rd := parquet.NewGenericReader[Row](pf)
	defer rd.Close()
	buf := make([]Row, 8192)
	for done := 0; ; {
		n, err := rd.Read(buf)
		fn(buf[:n])
		done += n
		if errors.Is(err, io.EOF) || err == nil && n == 0 {
			return nil
		}
		if err != nil {
			return fmt.Errorf("row %d: %w", done, err)
		}
	}
}

// openSamples opens a samples Parquet file through pqsafe (footer, codec,
// chunk and page checks; parquet-go's panics as errors).
func openSamples(r io.ReaderAt, size int64) (*parquet.File, error) {
	pf, err := pqsafe.Open(r, size)
	if err != nil {
		return nil, fmt.Errorf("not a readable Parquet file: %w", err)
	}
	return pf, nil
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
