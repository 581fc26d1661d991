package nvml

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tpptrace/tpptrace/ingest/samplepq"
	"github.com/tpptrace/tpptrace/model"
)

// Writer collects rows and writes them incrementally: each Flush turns the
// rows gathered since the last flush into one complete Parquet part file in
// "<path>.parts/"; Close joins the parts into path and removes the parts
// directory. A process killed between flushes loses only the rows since
// the last flush; the parts directory stays readable by Read.
type Writer struct {
	path    string
	partDir string
	pending []Row
	parts   int
	rows    int
}

// NewWriter prepares to write samples to path.
func NewWriter(path string) (*Writer, error) {
	dir := path + ".parts"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("samples output: %w", err)
	}
	return &Writer{path: path, partDir: dir}, nil
}

// Add queues rows for the next flush.
func (w *Writer) Add(rows ...Row) { w.pending = append(w.pending, rows...) }

// Rows is the number of rows written or queued so far.
func (w *Writer) Rows() int { return w.rows + len(w.pending) }

// Flush writes the queued rows as one part file.
func (w *Writer) Flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	w.parts++
	name := filepath.Join(w.partDir, fmt.Sprintf("part-%06d.parquet", w.parts))
	if err := WriteFile(name, w.pending); err != nil {
		return err
	}
	w.rows += len(w.pending)
	w.pending = w.pending[:0]
	return nil
}

// Close flushes, joins every part into the output file and removes the parts.
func (w *Writer) Close() error {
	if err := w.Flush(); err != nil {
		return err
	}
	sk := samplepq.NewSink(&model.Trace{})
	if err := readPath(w.partDir, sk); err != nil {
		return err
	}
	sk.T.Samples.Sort()
	if err := WriteTrace(w.path, sk.T); err != nil {
		return err
	}
	return os.RemoveAll(w.partDir)
}
