package nsys

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/cputime"
	"github.com/tpptrace/tpptrace/samples/nsysw"
)

// perRankExports writes the 64-rank job of the project's benchmarks
// (big-64 with 4 layers per stage, as BenchmarkAnalyzeCold64) as one export
// per rank, as `nsys profile -o report_rank%q{RANK}` leaves them.
func perRankExports(b *testing.B) []string {
	b.Helper()
	job, err := samples.Big64(4, 0)
	if err != nil {
		b.Fatal(err)
	}
	paths, err := nsysw.Write(b.TempDir(), job.Trace, nsysw.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return paths
}

// exportBytes is the size of the exports on disk.
func exportBytes(b *testing.B, paths []string) int64 {
	n := int64(0)
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		n += st.Size()
	}
	return n
}

// BenchmarkReadPerRank reads the 64 per-rank exports on one worker and
// reports events per CPU second (the process's, GC included).
func BenchmarkReadPerRank(b *testing.B) {
	paths := perRankExports(b)
	b.Logf("%d exports in %s, %d MB", len(paths), filepath.Dir(paths[0]), exportBytes(b, paths)>>20)
	cpu0 := cputime.Process()
	rows := 0
	for b.Loop() {
		tr, err := Read(context.Background(), paths, source.Options{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		rows = tr.Events.Len()
	}
	cpu := cputime.Process() - cpu0
	b.ReportMetric(float64(rows)*float64(b.N)/cpu.Seconds(), "rows/cpu-s")
	b.ReportMetric(float64(rows), "rows")
}
