// Package sampletest holds the steps tests across the tree take again and
// again with the generator: simulate a named scenario, write it with the
// Kineto writer into a temporary folder, read it back with ingest.Load, and
// compare a figure with the truth within the analysis tolerance. Each step
// fails the test on error.
package sampletest

import (
	"context"
	"math"
	"testing"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/kinetow"
)

// Config is the named scenario's configuration.
func Config(tb testing.TB, name string) samples.Config {
	tb.Helper()
	cfg, err := samples.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}

// Simulate runs the generator on cfg.
func Simulate(tb testing.TB, cfg samples.Config) *samples.Job {
	tb.Helper()
	job, err := samples.Simulate(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return job
}

// Job simulates the named scenario.
func Job(tb testing.TB, name string) *samples.Job {
	tb.Helper()
	return Simulate(tb, Config(tb, name))
}

// KinetoDir writes job as Kineto traces into a new temporary folder and
// returns the folder.
func KinetoDir(tb testing.TB, job *samples.Job) string {
	tb.Helper()
	dir := tb.TempDir()
	WriteKineto(tb, dir, job)
	return dir
}

// WriteKineto writes job as Kineto traces into dir.
func WriteKineto(tb testing.TB, dir string, job *samples.Job) {
	tb.Helper()
	if err := kinetow.WriteDir(dir, job); err != nil {
		tb.Fatal(err)
	}
}

// Load reads paths (files or folders) with ingest.Load, as `tpptrace
// analyze` does.
func Load(tb testing.TB, opts source.Options, paths ...string) *model.Trace {
	tb.Helper()
	tr, err := ingest.Load(context.Background(), paths, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// CloseTo reports whether got is within 5 % or 0.5 ms of want: the
// analysis tolerance against the generator's truth.
func CloseTo(got, want int64) bool {
	d := math.Abs(float64(got - want))
	return d <= 0.5e6 || d <= 0.05*math.Abs(float64(want))
}
