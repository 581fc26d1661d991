package nvml

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// TestSamplesMemoryPerRow reads 8 GPUs × 25,000 samples and bounds the
// bytes allocated per row during the read, an upper bound of the peak
// (2,170 when every row was held as a Row then copied into a sample, 537
// when rows were decoded in batches into 120-byte samples, 66 columnar;
// 36 with parquet-go's buffer pools warm, see BenchmarkReadSamples),
// and the bytes the samples keep once read (about 9: a 100 ms clock, one
// varying percentage and constant columns).
func TestSamplesMemoryPerRow(t *testing.T) {
	const n = 200_000
	p := filepath.Join(t.TempDir(), "s.parquet")
	if err := WriteFile(p, memRows(n)); err != nil {
		t.Fatal(err)
	}
	settle() // pooled buffers of the write are freed after two collections
	var before, after, kept runtime.MemStats
	runtime.ReadMemStats(&before)
	tr, err := Read(context.Background(), []string{p}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	settle()
	runtime.ReadMemStats(&kept)
	alloc := (after.TotalAlloc - before.TotalAlloc) / n
	retained := (int64(kept.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("%d B allocated and %d B kept per row (the samples hold %d B)", alloc, retained, tr.Samples.Bytes()/n)
	if tr.Samples.Len() != n {
		t.Fatalf("%d samples", tr.Samples.Len())
	}
	if alloc > 80 {
		t.Errorf("%d B allocated per row, want at most 80", alloc)
	}
	if retained > 16 {
		t.Errorf("%d B kept per row, want at most 16", retained)
	}
	runtime.KeepAlive(tr)
}

func settle() {
	runtime.GC()
	runtime.GC()
}

// memRows are n rows of 8 GPUs sampled every 100 ms.
func memRows(n int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{Host: "node-0001.cluster.example", GPUIndex: int32(i % 8), UUID: "GPU-3b2f1a9e-0000-1111-2222-33334444555" + string(rune('0'+i%8)),
			BusID: "00000000:1B:00.0", Name: "NVIDIA H100 80GB HBM3", TimeNs: int64(1e18) + int64(i/8)*1e8, SMUtil: int32(i % 100), GPMSMUtil: -1, GPMTensorUtil: -1}
	}
	return rows
}

func TestUnreadableSamplesFileIsSkippedWhileOthersRead(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
	if err := WriteFile(good, testRows(4, "node0")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(bad, []byte("PAR1 not really"), 0o644)
	var warns []string
	tr, err := Read(context.Background(), []string{good, bad}, source.Options{Warn: func(m string) { warns = append(warns, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Samples.Len() != 4 || len(tr.Skipped) != 1 || tr.Skipped[0].Source != bad || len(warns) != 1 {
		t.Fatalf("%d samples, skipped %+v, warnings %v", tr.Samples.Len(), tr.Skipped, warns)
	}
	if _, err := Read(context.Background(), []string{bad}, source.Options{}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("a lone bad file: %v", err)
	}
}

// TestMemoryBudgetStopsTheRead: past --max-memory the read fails (it is
// not a bad file to skip), naming the file.
func TestMemoryBudgetStopsTheRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.parquet")
	if err := WriteFile(p, memRows(10_000)); err != nil {
		t.Fatal(err)
	}
	_, err := Read(context.Background(), []string{p}, source.Options{MaxMemory: 1})
	if !errors.Is(err, source.ErrMemoryBudget) || !strings.Contains(err.Error(), p) {
		t.Fatalf("error %v, want the memory budget's naming %s", err, p)
	}
}
