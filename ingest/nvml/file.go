package nvml

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/ingest/pqsafe"
	"github.com/tpptrace/tpptrace/ingest/samplepq"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
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
// one trace holding only GPU samples. Columns are decoded page by page
// straight into compact samples, so memory is the samples kept. A file
// that cannot be read is skipped with a record and a warning while another
// can. Files are decoded on opts.Workers goroutines (source.InOrder), each
// into a sink of its own, and added to the trace in path order as they
// would be read one after another (fileSamples.addTo); a directory of
// parts is read on the caller's goroutine.
func Read(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	check := func() error { return source.CheckMemory(opts.MaxMemory) }
	sk := samplepq.NewSink(&model.Trace{})
	sk.Check = check
	var errs []error
	err := source.InOrder(ctx, len(paths), opts.Workers, func(i int) (*fileSamples, error) {
		return decodeFile(paths[i], check), nil
	}, func(i int, f *fileSamples) error {
		p := paths[i]
		if err := f.addTo(p, sk); errors.Is(err, source.ErrMemoryBudget) {
			return err
		} else if err != nil {
			errs = append(errs, err)
			skipFile(sk.T, p, err, opts)
			return nil
		}
		sk.T.Sources = append(sk.T.Sources, model.Source{Path: p, Format: "nvml-samples", Size: f.size})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(sk.T.Sources) == 0 && len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sk.T.Samples.Sort()
	return sk.T, nil
}

// fileSamples is one samples file decoded into a sink of its own (its
// GPUs numbered in the file's order), with its size and its read's error;
// dir says the path is a directory of parts, left to addTo.
type fileSamples struct {
	sk   *samplepq.Sink
	size int64
	err  error
	dir  bool
}

// decodeFile decodes the samples file at path (not a directory).
func decodeFile(path string, check func() error) *fileSamples {
	st, err := os.Stat(path)
	if err != nil {
		return &fileSamples{err: fmt.Errorf("read samples: %w", err)}
	}
	if st.IsDir() {
		return &fileSamples{dir: true, size: st.Size()}
	}
	f := &fileSamples{sk: samplepq.NewSink(&model.Trace{}), size: st.Size()}
	f.sk.Check = check
	f.err = readFile(path, st.Size(), f.sk)
	return f
}

// addTo adds the file's samples to sk as reading it into sk would have
// (readPath): each sample's GPU found or added in sk in row order, the
// rows read before an error kept, the dropped rows counted in sk and
// recorded for the path once it is read whole.
func (f *fileSamples) addTo(path string, sk *samplepq.Sink) error {
	switch {
	case f.dir:
		return readParts(path, sk)
	case f.sk == nil:
		return f.err
	}
	sk.AddFrom(f.sk)
	if f.err != nil {
		return f.err
	}
	recordDropped(path, sk)
	return nil
}

// recordDropped records the rows sk dropped since the last record as the
// path's, if any.
func recordDropped(path string, sk *samplepq.Sink) {
	if n := sk.TakeDropped(); n > 0 {
		sk.T.Skipped = append(sk.T.Skipped, model.Skip{Source: path, Offset: -1,
			Reason: fmt.Sprintf("rows of GPUs past the first %d", samplepq.MaxGPUs), Count: n})
	}
}

func skipFile(t *model.Trace, p string, err error, opts source.Options) {
	t.Skip(p, -1, "", "%s", strings.TrimPrefix(err.Error(), p+": "))
	if opts.Warn != nil {
		opts.Warn("skipping " + err.Error())
	}
}

// ReadFile reads one samples file, or every part in a ".parts" directory,
// as rows.
func ReadFile(path string) ([]Row, error) {
	sk := samplepq.NewSink(&model.Trace{})
	err := readPath(path, sk)
	return FromTrace(sk.T), err
}

// readPath adds the samples of one file (or of every part of a ".parts"
// directory) to sk, with a skip record for the rows of GPUs past
// samplepq.MaxGPUs.
func readPath(path string, sk *samplepq.Sink) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("read samples: %w", err)
	}
	if st.IsDir() {
		return readParts(path, sk)
	}
	if err := readFile(path, st.Size(), sk); err != nil {
		return err
	}
	recordDropped(path, sk)
	return nil
}

// readFile adds the samples of the file at path (size bytes) to sk.
func readFile(path string, size int64, sk *samplepq.Sink) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read samples: %w", err)
	}
	defer f.Close()
	if err := readSamples(f, size, sk); err != nil {
		return &source.FileError{Path: path, Offset: -1, Err: err}
	}
	return nil
}

func readParts(dir string, sk *samplepq.Sink) error {
	parts, err := filepath.Glob(filepath.Join(dir, "part-*.parquet"))
	if err != nil {
		return err
	}
	sort.Strings(parts)
	for _, p := range parts {
		if err := readPath(p, sk); err != nil {
			return err
		}
	}
	return nil
}

func readSamples(r io.ReaderAt, size int64, sk *samplepq.Sink) error {
	pf, err := openSamples(r, size)
	if err != nil {
		return err
	}
	if v, _ := pf.Lookup(kindKey); v != kindValue {
		return errors.New("not a tpptrace GPU samples file (no tpptrace.kind=nvml-samples metadata)")
	}
	sk.Grow(min(pf.NumRows(), 64*size)) // the footer's count, bounded by what the file can hold
	return sk.Read(pf)
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
	return writeFile(path, func(w io.Writer) error { return samplepq.WriteRows(w, rows, fileOptions()...) })
}

// WriteTrace writes a trace's samples as one complete Parquet samples file.
func WriteTrace(path string, t *model.Trace) error {
	return writeFile(path, func(w io.Writer) error { return samplepq.Write(w, t, fileOptions()...) })
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write samples: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("write samples %s: %w", path, err)
	}
	return f.Close()
}

func fileOptions() []parquet.WriterOption {
	return []parquet.WriterOption{parquet.Compression(&parquet.Zstd),
		parquet.KeyValueMetadata(kindKey, kindValue), parquet.CreatedBy("tpptrace", "1", "")}
}
