package samplepq

import (
	"cmp"
	"io"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/model"
)

// WriteRows writes rows, sorted by host, GPU index and time, as one
// Parquet file of the samples schema.
func WriteRows(w io.Writer, rows []Row, opts ...parquet.WriterOption) error {
	rows = slices.Clone(rows)
	SortRows(rows)
	pw := parquet.NewGenericWriter[Row](w, opts...)
	if _, err := pw.Write(rows); err != nil {
		return err
	}
	return pw.Close()
}

// Write writes t's samples, in their order, as one Parquet file of the
// samples schema, converting them to rows a batch at a time.
func Write(w io.Writer, t *model.Trace, opts ...parquet.WriterOption) error {
	pw := parquet.NewGenericWriter[Row](w, opts...)
	rows := make([]Row, 0, batch)
	for lo := 0; lo < t.Samples.Len(); lo += batch {
		rows = AppendRows(rows[:0], t, lo, min(lo+batch, t.Samples.Len()))
		if _, err := pw.Write(rows); err != nil {
			return err
		}
	}
	return pw.Close()
}

// AppendRows appends t's samples lo to hi as rows.
func AppendRows(rows []Row, t *model.Trace, lo, hi int) []Row {
	for i := lo; i < hi; i++ {
		s := t.Samples.At(i)
		var g model.SampledGPU
		if s.GPU >= 0 && int(s.GPU) < len(t.SampleGPUs) {
			g = t.SampleGPUs[s.GPU]
		}
		rows = append(rows, RowOf(g, s))
	}
	return rows
}

// SortRows orders rows by host, GPU index, then time; it is stable.
func SortRows(rows []Row) {
	slices.SortStableFunc(rows, func(a, b Row) int {
		return cmp.Or(strings.Compare(a.Host, b.Host), cmp.Compare(a.GPUIndex, b.GPUIndex), cmp.Compare(a.TimeNs, b.TimeNs))
	})
}
