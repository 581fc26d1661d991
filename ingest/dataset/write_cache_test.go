package dataset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// A dataset written for speed reads back as the same trace as an ordinary one.
func TestFastRoundTrip(t *testing.T) {
	tr := buildTrace(t, 3)
	addSamples(tr)
	_, want, _ := writeRead(t, tr, Manifest{})
	_, got, _ := writeRead(t, tr, Manifest{Fast: true})
	diffDumps(t, dump(want), dump(got))
	if got.Samples.Len() == 0 {
		t.Fatal("fixture has no samples; the samples file went untested")
	}
}

// Fast files are snappy and carry no statistics; ordinary ones stay zstd
// with min and max per column chunk.
func TestFastWritesNoStatistics(t *testing.T) {
	tr := buildTrace(t, 3)
	for _, fast := range []bool{false, true} {
		dir, _, _ := writeRead(t, tr, Manifest{Fast: fast})
		for _, path := range []string{EventsPath(dir, 0), filepath.Join(dir, collsFile)} {
			codec, bounds := chunkFacts(t, path)
			if wantCodec := map[bool]format.CompressionCodec{false: format.Zstd, true: format.Snappy}[fast]; codec != wantCodec {
				t.Errorf("fast=%v %s: codec %v, want %v", fast, path, codec, wantCodec)
			}
			if bounds == fast {
				t.Errorf("fast=%v %s: column chunk bounds present=%v", fast, path, bounds)
			}
		}
	}
}

// chunkFacts returns the codec of a file's first column chunk and whether any
// of its column chunks records a min or max.
func chunkFacts(t *testing.T, path string) (format.CompressionCodec, bool) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	md := pf.Metadata()
	if len(md.RowGroups) == 0 || len(md.RowGroups[0].Columns) == 0 {
		t.Fatalf("%s: no column chunks", path)
	}
	bounds := false
	for _, c := range md.RowGroups[0].Columns {
		bounds = bounds || c.MetaData.Statistics.MinValue != nil || c.MetaData.Statistics.MaxValue != nil
	}
	return md.RowGroups[0].Columns[0].MetaData.Codec, bounds
}
