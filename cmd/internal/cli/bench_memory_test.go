package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/kinetow"
)

// BenchmarkAnalyzePeakMemory runs 'tpptrace analyze --no-cache' on big-64
// jobs of 16, 64 and 256 ranks (--dp 1, 4, 16), as Kineto traces (folder)
// and as one dataset (read rank by rank: docs/memory.md), and reports the
// peak of the live heap (as of each collection) and of the heap's objects
// (live and not yet collected) during the run, per op and per event: how
// analysis memory grows with the job. .ci/bench/peakmem.sh measures peak
// RSS of the binary for bigger jobs.
func BenchmarkAnalyzePeakMemory(b *testing.B) {
	for _, dp := range []int{1, 4, 16} {
		for _, form := range []string{"folder", "dataset"} {
			b.Run(fmt.Sprintf("ranks=%d/%s", 16*dp, form), func(b *testing.B) { benchPeak(b, dp, form == "dataset") })
		}
	}
}

func benchPeak(b *testing.B, dp int, asDataset bool) {
	dir, events := bigJobDir(b, dp, asDataset)
	env := &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	var live, objects uint64
	for b.Loop() {
		runtime.GC()
		runtime.GC() // the second empties sync.Pools, which hold the job writers' buffers
		stop := samplePeaks()
		code := Run(context.Background(), []string{"analyze", "--no-cache", dir}, env)
		l, o := stop()
		if code != ExitOK {
			b.Fatalf("analyze exit %d", code)
		}
		live, objects = max(live, l), max(objects, o)
	}
	b.ReportMetric(float64(live), "peak-live-B/op")
	b.ReportMetric(float64(objects), "peak-heap-B/op")
	b.ReportMetric(float64(live)/float64(events), "peak-live-B/event")
}

// samplePeaks samples the heap every millisecond until the returned stop
// is called, which gives the peaks of the live heap and of heap objects.
func samplePeaks() (stop func() (live, objects uint64)) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	done := make(chan struct{})
	var wg sync.WaitGroup
	var live, objects uint64
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			live, objects = max(live, s[0].Value.Uint64()), max(objects, s[1].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() (uint64, uint64) {
		close(done)
		wg.Wait()
		return live, objects
	}
}

// bigJobDir writes big-64 with the given DP size (16·dp ranks) once per
// benchmark, as Kineto traces or as a dataset, and returns its directory
// and event count.
func bigJobDir(b *testing.B, dp int, asDataset bool) (string, int) {
	b.Helper()
	job, err := samples.Big64(0, dp)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if asDataset {
		dir = filepath.Join(dir, "ds")
		err = dataset.Write(dir, job.Trace, dataset.Manifest{})
	} else {
		err = kinetow.WriteDir(dir, job)
	}
	if err != nil {
		b.Fatal(err)
	}
	return dir, job.Trace.Events.Len()
}
