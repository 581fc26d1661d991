package dataset

import (
	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/tpptrace/tpptrace/ingest/samplepq"
)

// fastOptions are the writer options of a dataset written for speed (a cache
// entry, Manifest.Fast), added after the ordinary ones: snappy instead of
// zstd (snappy's fast encoder, fastSnappy), and no page statistics or page bounds (the column index's and the
// column chunk's min and max), which the reader never consults. Dictionaries
// stay: the reader translates each entry once, on first use. docs/performance.md
// has the figures.
func fastOptions() []parquet.WriterOption {
	opts := []parquet.WriterOption{parquet.Compression(&fastSnappy{}), parquet.DataPageStatistics(false)}
	for _, p := range noBoundsPaths {
		opts = append(opts, parquet.SkipPageBounds(p...))
	}
	return opts
}

// fastSnappy is parquet-go's snappy codec with the fast snappy encoder
// (s2.EncodeSnappy, as Google's snappy compresses) instead of the "better"
// one that klauspost's snappy.Encode is (about twice the CPU for blocks a
// few percent smaller). The blocks are plain snappy; decoding is the codec's.
type fastSnappy struct{ snappy.Codec }

// Encode compresses src into dst (reallocated when too small).
func (*fastSnappy) Encode(dst, src []byte) ([]byte, error) { return s2.EncodeSnappy(dst, src), nil }

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
