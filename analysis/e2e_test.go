package analysis

import (
	"context"
	"testing"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples/kinetow"
)

// TestEndToEndKineto writes generated jobs as Kineto traces, reads them
// back with ingest.Load and checks the analysis against the truth.
func TestEndToEndKineto(t *testing.T) {
	for _, name := range []string{"default", "balanced-gpipe", "clock-skew", "p2p-nometa"} {
		t.Run(name, func(t *testing.T) {
			job, dir := simulate(t, name), t.TempDir()
			if err := kinetow.WriteDir(dir, job); err != nil {
				t.Fatal(err)
			}
			tr, err := ingest.Load(context.Background(), []string{dir}, source.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Analyze(context.Background(), tr, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkTruth(t, res, job.Truth)
		})
	}
}

func BenchmarkIngestBig64(b *testing.B) {
	job, dir := simulate(b, "big-64"), b.TempDir()
	if err := kinetow.WriteDir(dir, job); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ingest.Load(context.Background(), []string{dir}, source.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
