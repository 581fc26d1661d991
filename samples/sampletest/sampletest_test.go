package sampletest

import (
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

func TestCloseTo(t *testing.T) {
	cases := []struct {
		got, want int64
		ok        bool
	}{
		{100e6, 104e6, true},     // 4 %
		{100e6, 110e6, false},    // 10 %, 10 ms
		{1e6, 1.4e6, true},       // 0.4 ms
		{0, 0.6e6, false},        // 0.6 ms of nothing
		{-0.5e6, 0, true},        // 0.5 ms exactly
		{200e6, 190.5e6, true},   // 5 % of want, not of got
		{200e6, 190.4e6, false},  // just beyond
		{1e9, 1.0499e9, true},    // relative only
		{1e9, 1.06e9, false},     // 6 %
		{-100e6, -100e6, true},   // equal
		{100e6, -100e6, false},   // sign
		{0, 0, true},             // nothing
		{1, 0, true},             // 1 ns
		{500_001, 0, false},      // just past 0.5 ms
		{10e6, 10.5e6, true},     // 0.5 ms and 5 %
		{10e6, 10.6e6, false},    // 0.6 ms and 5.7 %
		{1e12, 1.05e12, true},    // 5 % exactly
		{1.0501e12, 1e12, false}, // past 5 % of want
	}
	for _, c := range cases {
		if got := CloseTo(c.got, c.want); got != c.ok {
			t.Errorf("CloseTo(%d, %d) = %v, want %v", c.got, c.want, got, c.ok)
		}
	}
}

// TestKinetoRoundTrip: a simulated scenario written as Kineto traces loads
// back with every rank and as many kernels.
func TestKinetoRoundTrip(t *testing.T) {
	job := Job(t, "default")
	tr := Load(t, source.Options{}, KinetoDir(t, job))
	if len(tr.Ranks) != len(job.Trace.Ranks) || kernels(tr) != kernels(job.Trace) {
		t.Errorf("loaded %d ranks and %d kernels, want %d and %d", len(tr.Ranks), kernels(tr), len(job.Trace.Ranks), kernels(job.Trace))
	}
}

func kernels(tr *model.Trace) int {
	n := 0
	for _, k := range tr.Events.Kind {
		if k == model.KindCompute || k == model.KindComm {
			n++
		}
	}
	return n
}

// fatalRecorder notes a Fatal instead of ending the test.
type fatalRecorder struct {
	testing.TB
	fatal bool
}

func (r *fatalRecorder) Fatal(...any) { r.fatal = true }

// TestUnknownScenarioFails: Config fails the test on a name the generator
// does not know, and not on one it knows.
func TestUnknownScenarioFails(t *testing.T) {
	for name, want := range map[string]bool{"no-such-scenario": true, "default": false} {
		r := &fatalRecorder{TB: t}
		Config(r, name)
		if r.fatal != want {
			t.Errorf("Config(%q) failed %v, want %v", name, r.fatal, want)
		}
	}
}
