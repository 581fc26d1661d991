package nvml

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// BenchmarkReadSamples reads 8 GPUs × 25,000 samples; with -benchmem,
// B/op divided by 200,000 is the bytes allocated per row.
func BenchmarkReadSamples(b *testing.B) {
	p := filepath.Join(b.TempDir(), "s.parquet")
	if err := WriteFile(p, memRows(200_000)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		tr, err := Read(context.Background(), []string{p}, source.Options{})
		if err != nil || tr.Samples.Len() != 200_000 {
			b.Fatalf("%v, %d samples", err, tr.Samples.Len())
		}
	}
}
