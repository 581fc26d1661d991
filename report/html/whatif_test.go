package html

import (
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/plots/fixture"
)

func withWhatIf() *result.Result {
	r := fixture.Result(fixture.Small())
	r.WhatIf = &result.WhatIf{Ops: 100, Groups: 10, TraceStepNs: 100e6, NoDelayStepNs: 95e6, IdealStepNs: 80e6, S: 1.19,
		SlowWorkers: []int32{5}, FixSlowWorkers: result.WhatIfFix{StepNs: 90e6, M: 0.33},
		Scenarios:    []result.WhatIfScenario{{Name: "fix rank 5", Summary: "<b>x</b>", StepNs: 90e6, GainNs: 10e6}},
		CriticalPath: []result.PathSegment{{Category: "compute stage 3", Ns: 70e6}}}
	return r
}

// TestWhatIfSection: the page and the Markdown show the scenarios with a
// bar proportional to the predicted step, escaped; without a replay there
// is no section.
func TestWhatIfSection(t *testing.T) {
	var p, m strings.Builder
	r := withWhatIf()
	if err := Page(&p, r, nil); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&m, r, nil, "fig"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="whatif"`, "fix rank 5", "width:90%", "compute stage 3", "M_W 0.330"} {
		if !strings.Contains(p.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(p.String(), "<b>x</b>") {
		t.Error("scenario summary not escaped")
	}
	if !strings.Contains(m.String(), "| fix rank 5 | 90.0 ms | 10.0 ms (10.0 %) |") {
		t.Errorf("markdown lacks the scenario row:\n%s", m.String())
	}
	var q strings.Builder
	if err := Page(&q, fixture.Result(fixture.Small()), nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(q.String(), `id="whatif"`) {
		t.Error("a what-if section without a replay")
	}
}
