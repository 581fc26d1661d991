package nvml

import (
	"github.com/tpptrace/tpptrace/ingest/samplepq"
	"github.com/tpptrace/tpptrace/model"
)

// Row is one sampling pass over one GPU, as stored in Parquet: the one
// samples schema, shared with the dataset's samples table. Values a GPU
// does not support are -1.
type Row = samplepq.Row

// ToTrace converts rows into a trace holding only GPU samples.
func ToTrace(rows []Row) *model.Trace {
	sk := samplepq.NewSink(&model.Trace{})
	sk.AddRows(rows)
	sk.T.Samples.Sort()
	return sk.T
}

// FromTrace converts a trace's GPU samples back into rows.
func FromTrace(t *model.Trace) []Row {
	return samplepq.AppendRows(make([]Row, 0, t.Samples.Len()), t, 0, t.Samples.Len())
}
