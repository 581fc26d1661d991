package analysis_test

import (
	"context"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// analyzeTrace analyses tr with default options.
func analyzeTrace(t *testing.T, tr *model.Trace) *result.Result {
	t.Helper()
	res, err := analysis.Analyze(context.Background(), tr, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// analyzeScenario simulates the named generator scenario and analyses its
// trace with default options.
func analyzeScenario(t *testing.T, name string) (*samples.Job, *result.Result) {
	t.Helper()
	job := sampletest.Job(t, name)
	return job, analyzeTrace(t, job.Trace)
}

// loadAndAnalyze reads dir with ingest.Load and analyses it.
func loadAndAnalyze(t *testing.T, dir string) *result.Result {
	t.Helper()
	return analyzeTrace(t, sampletest.Load(t, source.Options{}, dir))
}

// analyzeKineto writes job with the Kineto writer, reads the files back
// with ingest.Load and analyses them.
func analyzeKineto(t *testing.T, job *samples.Job) *result.Result {
	t.Helper()
	return loadAndAnalyze(t, sampletest.KinetoDir(t, job))
}
