package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/optable"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// peakFormat writes a hostile-but-legal input of n items (events, lines,
// entries, rows) into dir and reads it, returning what the read kept.
type peakFormat struct {
	name  string
	write func(t *testing.T, dir string, n int) []string
	load  func(paths []string) (int, error)
}

// peakBound is the bound on the live heap of one read: 1 GiB plus
// 100 bytes per item kept.
func peakBound(kept int) uint64 { return 1<<30 + 100*uint64(kept) }

// TestPeakMemoryPerFormat loads a large generated input of every format
// and holds the heap's peak above what was live before (sampled every
// half millisecond, the result included) to peakBound of what it kept
// (keptItems, or op-table rows), every format alike. It logs bytes per
// item kept and written and, with both sizes, the slope and where the
// bound would be crossed (docs/limits.md). -short runs the small size
// only.
func TestPeakMemoryPerFormat(t *testing.T) {
	sizes := []int{20_000}
	if !testing.Short() {
		sizes = append(sizes, 100_000)
	}
	for _, f := range peakFormats() {
		var kepts []int
		var peaks []uint64
		for _, n := range sizes {
			t.Run(fmt.Sprintf("%s/%d", f.name, n), func(t *testing.T) {
				kept, peak := peakOf(t, f, n)
				kepts, peaks = append(kepts, kept), append(peaks, peak)
			})
		}
		if len(kepts) == 2 {
			logSlope(t, f.name, sizes, kepts, peaks)
		}
	}
}

func peakOf(t *testing.T, f peakFormat, n int) (int, uint64) {
	paths := f.write(t, t.TempDir(), n)
	peak, kept, err := measurePeak(func() (int, error) { return f.load(paths) })
	if err != nil {
		t.Fatal(err)
	}
	if kept == 0 {
		t.Fatalf("nothing kept from %d items", n)
	}
	t.Logf("%s: %d items, %.1f MB on disk, %d kept, peak %.1f MB, %.0f B/kept, %.0f B/item", f.name, n, float64(diskBytes(paths))/(1<<20), kept,
		float64(peak)/(1<<20), float64(peak)/float64(kept), float64(peak)/float64(n))
	if peak > peakBound(kept) {
		t.Errorf("peak %d B over the bound %d B (1 GiB + 100 B × %d kept)", peak, peakBound(kept), kept)
	}
	return kept, peak
}

// logSlope logs what each further item written costs and, when that
// outgrows 100 B per item kept, near how many items written the peak
// would cross peakBound (both taken as linear in the items written).
func logSlope(t *testing.T, name string, sizes, kepts []int, peaks []uint64) {
	dn := float64(sizes[1] - sizes[0])
	slope := (float64(peaks[1]) - float64(peaks[0])) / dn
	keptPer := float64(kepts[1]-kepts[0]) / dn
	if slope <= 100*keptPer {
		t.Logf("%s: %.0f B per further item, %.2f kept per item: within the bound at any size", name, slope, keptPer)
		return
	}
	a := float64(peaks[1]) - slope*float64(sizes[1])
	b := float64(kepts[1]) - keptPer*float64(sizes[1])
	cross := (float64(1<<30) + 100*b - a) / (slope - 100*keptPer)
	t.Logf("%s: %.0f B per further item, %.2f kept per item: the bound is crossed near %.2g items", name, slope, keptPer, cross)
}

// measurePeak runs read and returns the peak of the heap's live objects
// above what was live before it, while read runs and after it returns.
func measurePeak(read func() (int, error)) (uint64, int, error) {
	runtime.GC()
	base := heapObjects()
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			peak.Store(max(peak.Load(), heapObjects()))
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Microsecond):
			}
		}
	}()
	kept, err := read()
	peak.Store(max(peak.Load(), heapObjects()))
	close(stop)
	<-done
	if p := peak.Load(); p > base {
		return p - base, kept, err
	}
	return 0, kept, err
}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func diskBytes(paths []string) int64 {
	n := int64(0)
	for _, p := range paths {
		filepath.Walk(p, func(_ string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				n += fi.Size()
			}
			return nil
		})
	}
	return n
}

// loadKept reads paths through ingest.Load and counts what it kept.
func loadKept(paths []string) (int, error) {
	tr, err := ingest.Load(context.Background(), paths, source.Options{Workers: 1})
	if err != nil {
		return 0, err
	}
	return keptItems(tr), nil
}

// keptItems counts what a trace holds per item read: events, samples,
// counters, collectives, communicators, ranks and skip records.
func keptItems(tr *model.Trace) int {
	return tr.Events.Len() + tr.Samples.Len() + tr.Counters.Len() + tr.Colls.Len() + len(tr.Comms) + len(tr.Ranks) + len(tr.Skipped)
}

func loadOpTable(paths []string) (int, error) {
	tab, err := optable.ReadFile(paths[0])
	if err != nil {
		return 0, err
	}
	return tab.Len(), nil
}
