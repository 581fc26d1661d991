package dataset

import (
	"github.com/parquet-go/parquet-go"

	"github.com/tpptrace/tpptrace/ingest/samplepq"
)

// fastOptions are the writer options of a dataset written for speed (a cache
// entry, Manifest.Fast), added after the ordinary ones: snappy instead of
// zstd, and no page statistics or page bounds (the column index's and the
// column chunk's min and max), which the reader never consults. Dictionaries
// stay: the reader translates each entry once, on first use. docs/performance.md
// has the figures.
func fastOptions() []parquet.WriterOption {
	opts := []parquet.WriterOption{parquet.Compression(&parquet.Snappy), parquet.DataPageStatistics(false)}
	for _, p := range noBoundsPaths {
		opts = append(opts, parquet.SkipPageBounds(p...))
	}
	return opts
}

// noBoundsPaths are the column paths of every table of a dataset; naming a
// column that another table lacks does no harm.
var noBoundsPaths = columnPaths(eventRow{}, rankRow{}, streamRow{}, commRow{}, collRow{},
	sampleGPURow{}, skipRow{}, counterRow{}, samplepq.Row{})

func columnPaths(rows ...any) [][]string {
	var paths [][]string
	for _, r := range rows {
		paths = append(paths, parquet.SchemaOf(r).Columns()...)
	}
	return paths
}
