package nvml

import (
	"context"
	"fmt"
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

// BenchmarkReadSamplesFiles reads 64 files of 8 GPUs × 3,125 samples each (a
// job's nodes, sampled beside its traces): decoded on every core, added
// in file order.
func BenchmarkReadSamplesFiles(b *testing.B) {
	dir := b.TempDir()
	var paths []string
	rows := memRows(25_000)
	for i := range 64 {
		p := filepath.Join(dir, fmt.Sprintf("node-%02d.parquet", i))
		for j := range rows {
			rows[j].Host = fmt.Sprintf("node-%04d", i)
		}
		if err := WriteFile(p, rows); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, p)
	}
	b.ReportAllocs()
	for b.Loop() {
		tr, err := Read(context.Background(), paths, source.Options{})
		if err != nil || tr.Samples.Len() != 64*25_000 {
			b.Fatalf("%v, %d samples", err, tr.Samples.Len())
		}
	}
}
