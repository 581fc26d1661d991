package analysis_test

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// analyzeOn analyses a fresh simulation of scenario with GOMAXPROCS set to
// procs: its Result as JSON, the events' iterations, the steps Progress
// named and the error's text.
func analyzeOn(t *testing.T, procs int, scenario string, opts analysis.Options) (res []byte, iters []int32, progress []string, errText string) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	job := sampletest.Job(t, scenario)
	opts.Progress = func(s string) { progress = append(progress, s) }
	r, err := analysis.Analyze(context.Background(), job.Trace, opts)
	if err != nil {
		return nil, nil, progress, err.Error()
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b, slices.Clone(job.Trace.Events.Iter), progress, ""
}

// TestConcurrentStepsEqualSerial: with two cores segment looks for the
// step windows beside align (Step.Early) and diagnose computes the
// arrivals and the timeline beside the rest; on one core both run in the
// serial order. The Results are byte-identical, the events' iterations
// equal, Progress names the steps in registry order, and an error (no
// step selected) is the same. Run with -race, it also checks the
// concurrent parts share nothing they write.
func TestConcurrentStepsEqualSerial(t *testing.T) {
	cases := []struct {
		scenario string
		opts     analysis.Options
	}{
		{"default", analysis.Options{}},
		{"slow-rank", analysis.Options{}},
		{"late-rank", analysis.Options{}},
		{"interleaved", analysis.Options{}},
		{"cut-last-step", analysis.Options{}},
		{"balanced-1f1b", analysis.Options{WhatIf: true}},
		{"default", analysis.Options{Steps: []int32{1}}},
		{"default", analysis.Options{Steps: []int32{1 << 20}}}, // none: segment's error
	}
	for _, c := range cases {
		one, it1, p1, e1 := analyzeOn(t, 1, c.scenario, c.opts)
		two, it2, p2, e2 := analyzeOn(t, 2, c.scenario, c.opts)
		if e1 != e2 {
			t.Errorf("%s %v: error %q on one core, %q on two", c.scenario, c.opts.Steps, e1, e2)
		}
		if len(c.opts.Steps) > 0 && c.opts.Steps[0] == 1<<20 && !strings.Contains(e2, "segment") {
			t.Errorf("%s: error %q, want segment's", c.scenario, e2)
		}
		if !bytes.Equal(one, two) {
			t.Errorf("%s %v: the Result on two cores differs from the one on one core", c.scenario, c.opts.Steps)
		}
		if !slices.Equal(it1, it2) {
			t.Errorf("%s %v: the events' iterations differ", c.scenario, c.opts.Steps)
		}
		if !slices.Equal(p1, p2) {
			t.Errorf("%s %v: progress %v on one core, %v on two", c.scenario, c.opts.Steps, p1, p2)
		}
	}
}
