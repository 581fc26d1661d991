package dataset

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/cputime"
)

// benchTrace returns n events over 8 ranks with 500 distinct kernel names,
// a tenth of them communication kernels with a collective each.
func benchTrace(b *testing.B, n int) *model.Trace {
	b.Helper()
	tr := &model.Trace{}
	names := make([]int32, 500)
	for i := range names {
		names[i] = tr.Names.Intern(fmt.Sprintf("void kernel_%03d<float, 128>(Params)", i))
	}
	per := n / 8
	rng := rand.New(rand.NewPCG(1, 2))
	for r := int32(0); r < 8; r++ {
		tr.AddRank(model.Rank{Rank: r, LocalGPU: r, Coord: model.UnknownCoord, Source: -1})
		s := tr.AddStream(model.Stream{Rank: r, GPU: true, ID: 7, Device: r})
		start := int64(0)
		for i := 0; i < per; i++ {
			start += 500 + rng.Int64N(4_000) // jittered gaps and durations, as in real traces
			e := model.NewEvent(r, model.KindCompute, names[rng.IntN(len(names))], start, 300+rng.Int64N(200_000))
			e.Stream, e.Corr, e.Iter = s, int64(i)*3+rng.Int64N(3), int32(i/10_000)
			if i%10 == 0 {
				e.Kind, e.Coll = model.KindComm, tr.Colls.Append(model.Collective{Op: model.OpAllReduce, Bytes: 1 << 20, Comm: -1, Seq: int64(i), Peer: -1, GroupSize: 8})
			}
			tr.AddEvent(e)
		}
	}
	return tr
}

func dirSize(b *testing.B, dir string) int64 {
	var total int64
	err := filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return total
}

const benchEvents = 2_000_000

func BenchmarkWrite2M(b *testing.B) { benchWrite(b, Manifest{}) }

// BenchmarkWriteCache2M writes as a cache entry does (Manifest.Fast).
func BenchmarkWriteCache2M(b *testing.B) { benchWrite(b, Manifest{Fast: true}) }

func benchWrite(b *testing.B, m Manifest) {
	tr := benchTrace(b, benchEvents)
	dir := filepath.Join(b.TempDir(), "ds")
	b.ReportAllocs()
	start, cpu := time.Now(), cputime.Process()
	for b.Loop() {
		if err := Write(dir, tr, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cputime.Process()-cpu)/1e6/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(benchEvents)*float64(b.N)/time.Since(start).Seconds(), "rows/s")
	b.ReportMetric(float64(dirSize(b, dir))/benchEvents, "bytes/row")
}

func BenchmarkRead2M(b *testing.B) {
	dir := writeBench(b)
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		tr, _, err := Read(dir)
		if err != nil || tr.Events.Len() != benchEvents {
			b.Fatalf("read %v events: %v", tr, err)
		}
	}
	b.ReportMetric(float64(benchEvents)*float64(b.N)/time.Since(start).Seconds(), "rows/s")
}

func BenchmarkReadOneRank(b *testing.B) {
	dir := writeBench(b)
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		if _, _, err := ReadRanks(dir, []int32{3}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchEvents/8)*float64(b.N)/time.Since(start).Seconds(), "rows/s")
}

// writeBench writes the benchmark trace as a dataset into a new temporary
// folder.
func writeBench(b *testing.B) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "ds")
	if err := Write(dir, benchTrace(b, benchEvents), Manifest{}); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkReadCache64 reads what a warm 'tpptrace analyze' of the 64-rank
// job reads: big-64 with 4 layers per stage (524 k events, 64 events files)
// written as a cache entry (Manifest.Fast). cpu-ms/op is the process's CPU
// time per read, every core included.
func BenchmarkReadCache64(b *testing.B) {
	job, err := samples.Big64(4, 0)
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "ds")
	if err := Write(dir, job.Trace, Manifest{Tool: "bench", Fast: true}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := cputime.Process()
	for b.Loop() {
		if tr, _, err := Read(dir); err != nil || tr.Events.Len() != job.Trace.Events.Len() {
			b.Fatalf("read %d events: %v", tr.Events.Len(), err)
		}
	}
	b.ReportMetric(float64(cputime.Process()-cpu)/1e6/float64(b.N), "cpu-ms/op")
}

// BenchmarkWriteCache64 writes what a cold 'tpptrace analyze' of the 64-rank
// job writes behind the analysis: big-64 with 4 layers per stage (524 k
// events, 64 events files) as a cache entry (Manifest.Fast). cpu-ms/op is
// the process's CPU time per write, every core included.
func BenchmarkWriteCache64(b *testing.B) {
	job, err := samples.Big64(4, 0)
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "ds")
	b.ReportAllocs()
	cpu := cputime.Process()
	for b.Loop() {
		if err := Write(dir, job.Trace, Manifest{Tool: "bench", Fast: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cputime.Process()-cpu)/1e6/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(dirSize(b, dir))/float64(job.Trace.Events.Len()), "bytes/row")
}
