package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/cputime"
	"github.com/tpptrace/tpptrace/samples/kinetow"
)

// BenchmarkAnalyzeCold64 runs 'tpptrace analyze' on the 64-rank TP4·PP4·DP4
// job (big-64 with 4 layers per stage: 524 k events, 9.6 MB of gzipped
// Kineto JSON) with an empty cache each time: reading, analysis and the
// cache write. BenchmarkAnalyzeWarm64 reads the cache instead.
func BenchmarkAnalyzeCold64(b *testing.B) { benchAnalyze(b, false) }

func BenchmarkAnalyzeWarm64(b *testing.B) { benchAnalyze(b, true) }

func benchAnalyze(b *testing.B, warm bool) {
	dir := bench64Dir(b)
	cache := filepath.Join(b.TempDir(), "cache")
	env := &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	b.Setenv("TPPTRACE_CACHE", cache)
	if warm && Run(context.Background(), []string{"analyze", dir}, env) != ExitOK {
		b.Fatal("analyze failed")
	}
	cpu := cputime.Process()
	for b.Loop() {
		if !warm {
			os.RemoveAll(cache)
		}
		if code := Run(context.Background(), []string{"analyze", dir}, env); code != ExitOK {
			b.Fatalf("analyze exit %d", code)
		}
	}
	b.ReportMetric((cputime.Process()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

// bench64Dir writes the 64-rank job once per benchmark.
func bench64Dir(b *testing.B) string {
	b.Helper()
	job, err := samples.Big64(4, 0)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := kinetow.WriteDir(dir, job); err != nil {
		b.Fatal(err)
	}
	return dir
}
