package analysis

import (
	"context"
	"testing"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestEndToEndKineto writes generated jobs as Kineto traces, reads them
// back with ingest.Load and checks the analysis against the truth.
func TestEndToEndKineto(t *testing.T) {
	for _, name := range []string{"default", "balanced-gpipe", "clock-skew", "p2p-nometa"} {
		t.Run(name, func(t *testing.T) {
			job := sampletest.Job(t, name)
			tr := sampletest.Load(t, source.Options{}, sampletest.KinetoDir(t, job))
			res := mustAnalyze(t, tr)
			checkTruth(t, res, job.Truth)
		})
	}
}

func BenchmarkIngestBig64(b *testing.B) {
	dir := sampletest.KinetoDir(b, sampletest.Job(b, "big-64"))
	for b.Loop() {
		if _, err := ingest.Load(context.Background(), []string{dir}, source.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
