package kinetow

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

// TestMemoryEventsRoundTrip writes a job with MemoryEvents and expects the
// Kineto reader to give back every allocated-memory sample exactly.
func TestMemoryEventsRoundTrip(t *testing.T) {
	c, _ := samples.Lookup("balanced-gpipe")
	c.MemoryEvents, c.Steps = true, 2
	job, err := samples.Simulate(c)
	if err != nil {
		t.Fatal(err)
	}
	dir := writeTemp(t, job)
	var paths []string
	for _, r := range job.Trace.Ranks {
		paths = append(paths, filepath.Join(dir, FileName(int(r.Rank))))
	}
	got, err := kineto.Read(context.Background(), paths, source.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	alloc, _ := got.Names.Lookup(model.CounterMemAllocated)
	var n int
	for i := 0; i < got.Counters.Len(); i++ {
		if got.Counters.Name[i] != alloc {
			continue
		}
		w, g := job.Trace.Counters.At(n), got.Counters.At(i)
		if w.Rank != g.Rank || w.Time != g.Time || w.Value != g.Value {
			t.Fatalf("sample %d: wrote %+v, read %+v", n, w, g)
		}
		n++
	}
	if n != job.Trace.Counters.Len() || n == 0 {
		t.Fatalf("read %d allocated samples, wrote %d", n, job.Trace.Counters.Len())
	}
}
