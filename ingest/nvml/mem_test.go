package nvml

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
)

// TestSamplesMemoryPerRow reads 8 GPUs × 25,000 samples and bounds the
// bytes allocated per row, an upper bound of the peak (2,170 when every row
// was held as a Row, then copied into a sample).
func TestSamplesMemoryPerRow(t *testing.T) {
	const n = 200_000
	p := filepath.Join(t.TempDir(), "s.parquet")
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{Host: "node-0001.cluster.example", GPUIndex: int32(i % 8), UUID: "GPU-3b2f1a9e-0000-1111-2222-33334444555" + string(rune('0'+i%8)),
			BusID: "00000000:1B:00.0", Name: "NVIDIA H100 80GB HBM3", TimeNs: int64(1e18) + int64(i/8)*1e8, SMUtil: int32(i % 100), GPMSMUtil: -1, GPMTensorUtil: -1}
	}
	if err := WriteFile(p, rows); err != nil {
		t.Fatal(err)
	}
	rows = nil
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tr, err := Read(context.Background(), []string{p}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	alloc := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("%d B allocated per row", alloc)
	if len(tr.Samples) != n {
		t.Fatalf("%d samples", len(tr.Samples))
	}
	if alloc > 800 {
		t.Errorf("%d B allocated per row, want at most 800", alloc)
	}
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
	if len(tr.Samples) != 4 || len(tr.Skipped) != 1 || tr.Skipped[0].Source != bad || len(warns) != 1 {
		t.Fatalf("%d samples, skipped %+v, warnings %v", len(tr.Samples), tr.Skipped, warns)
	}
	if _, err := Read(context.Background(), []string{bad}, source.Options{}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("a lone bad file: %v", err)
	}
}
