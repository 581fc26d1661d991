package nsysw_test

import (
	"context"
	"math"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/nsys"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/nsysw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

func memoryJob(t *testing.T) *samples.Job {
	c := sampletest.Config(t, "balanced-gpipe")
	c.MemoryEvents = true
	return sampletest.Simulate(t, c)
}

// TestMemoryRowsRoundTrip: the nsys reader gives back every allocated
// sample the generator wrote, at the same time (relative to the
// earliest session start) and level.
func TestMemoryRowsRoundTrip(t *testing.T) {
	job := memoryJob(t)
	paths, err := nsysw.Write(t.TempDir(), job.Trace, nsysw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := nsys.Read(context.Background(), paths, source.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := &job.Trace.Counters
	if got.Counters.Len() != want.Len() || want.Len() == 0 {
		t.Fatalf("read %d samples, wrote %d", got.Counters.Len(), want.Len())
	}
	shift := job.Trace.Ranks[0].ClockBase - got.Ranks[0].ClockBase
	for i := 0; i < want.Len(); i++ {
		w, g := want.At(i), got.Counters.At(i)
		if w.Rank != g.Rank || w.Value != g.Value || w.Time+shift != g.Time || got.Names.Get(g.Name) != model.CounterMemAllocated {
			t.Fatalf("sample %d: wrote %+v, read %+v (shift %d)", i, w, g, shift)
		}
	}
}

// TestNsysAndKinetoPeakMemoryAgree: balanced-gpipe with memory events,
// analysed from nsys exports and from Kineto traces, gives the same peak
// per rank and stage (within 1 %) and meets the truth.
func TestNsysAndKinetoPeakMemoryAgree(t *testing.T) {
	job := memoryJob(t)
	for _, perNode := range []bool{false, true} {
		nd := t.TempDir()
		if _, err := nsysw.WriteDir(nd, job, nsysw.Options{PerNode: perNode}); err != nil {
			t.Fatal(err)
		}
		nres, kres := analyzeDir(t, nd), analyzeDir(t, sampletest.KinetoDir(t, job))
		if len(nres.Ranks) != len(job.Truth.Ranks) || len(kres.Ranks) != len(job.Truth.Ranks) {
			t.Fatalf("ranks: nsys %d, kineto %d, truth %d", len(nres.Ranks), len(kres.Ranks), len(job.Truth.Ranks))
		}
		for i, w := range job.Truth.Ranks {
			n, k := nres.Ranks[i].PeakMemBytes, kres.Ranks[i].PeakMemBytes
			if w.PeakMemBytes <= 0 || !within1(n, k) || !within1(n, w.PeakMemBytes) {
				t.Errorf("per-node %v rank %d: peak nsys %d, kineto %d, truth %d", perNode, w.Rank, n, k, w.PeakMemBytes)
			}
		}
		if len(nres.Stages) == 0 || len(nres.Stages) != len(kres.Stages) {
			t.Fatalf("stages: nsys %d, kineto %d", len(nres.Stages), len(kres.Stages))
		}
		t.Logf("per-node %v: rank 0 peak nsys %d B, kineto %d B, truth %d B", perNode, nres.Ranks[0].PeakMemBytes, kres.Ranks[0].PeakMemBytes, job.Truth.Ranks[0].PeakMemBytes)
		for i := range nres.Stages {
			if n, k := nres.Stages[i].PeakMemBytes, kres.Stages[i].PeakMemBytes; n <= 0 || !within1(n, k) {
				t.Errorf("per-node %v stage %d: peak nsys %d, kineto %d", perNode, i, n, k)
			}
		}
	}
}

func within1(a, b int64) bool {
	return math.Abs(float64(a-b)) <= 0.01*math.Max(float64(a), float64(b))
}
