package html

import (
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// whatifView is the what-if section as the page reads it.
type whatifView struct {
	Check, Steps, Fixes, Withheld string
	Rows                          []whatifRow
	Path                          []string
}

// whatifRow is one scenario: its predicted step and gain, and the bar's
// width (percent of the recorded step the prediction takes).
type whatifRow struct {
	Name, Summary, Step, Gain string
	Width                     int
}

func newWhatifView(r *result.Result) *whatifView {
	w := r.WhatIf
	if w == nil {
		return nil
	}
	v := &whatifView{
		Check: fmt.Sprintf("replay of %s ops and %s sync groups reproduces the recorded steps within %s (%.2g of the step)",
			vocab.Count(int64(w.Ops)), vocab.Count(int64(w.Groups)), vocab.Duration(int64(w.SelfCheckErrNs)), w.SelfCheckRel),
		Steps: fmt.Sprintf("recorded step %s; without launch delays %s; at ideal durations %s (S %.3f)",
			vocab.Duration(w.TraceStepNs), vocab.Duration(w.NoDelayStepNs), vocab.Duration(w.IdealStepNs), w.S),
		Fixes: fmt.Sprintf("fixing the slowest workers (ranks %s) gives %s (M_W %.3f); fixing the last stage %s (M_S %.3f)",
			joinRanks(w.SlowWorkers), vocab.Duration(w.FixSlowWorkers.StepNs), w.FixSlowWorkers.M,
			vocab.Duration(w.FixLastStage.StepNs), w.FixLastStage.M),
		Withheld: w.Withheld,
	}
	for _, s := range w.Scenarios {
		v.Rows = append(v.Rows, whatifRow{Name: s.Name, Summary: s.Summary, Step: vocab.Duration(s.StepNs),
			Gain:  vocab.Duration(s.GainNs) + " (" + vocab.Percent(float64(s.GainNs)/float64(max(w.TraceStepNs, 1))) + ")",
			Width: int(min(100, max(0, 100*s.StepNs/max(w.TraceStepNs, 1))))})
	}
	for _, c := range w.CriticalPath {
		v.Path = append(v.Path, c.Category+" "+vocab.Duration(c.Ns))
	}
	return v
}

func joinRanks(rs []int32) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = fmt.Sprint(r)
	}
	return strings.Join(s, ", ")
}

// mdWhatif writes the what-if section in Markdown.
func mdWhatif(b *strings.Builder, v *whatifView) {
	if v == nil {
		return
	}
	fmt.Fprintf(b, "\n## What if\n\n%s. %s. %s.\n", md(v.Check), md(v.Steps), md(v.Fixes))
	if v.Withheld != "" {
		fmt.Fprintf(b, "\n%s\n", md(v.Withheld))
	}
	if len(v.Rows) > 0 {
		b.WriteString("\n| scenario | predicted step | gain |\n|---|---:|---:|\n")
		for _, r := range v.Rows {
			fmt.Fprintf(b, "| %s | %s | %s |\n", md(r.Name), r.Step, r.Gain)
		}
	}
	if len(v.Path) > 0 {
		fmt.Fprintf(b, "\nCritical path per step: %s.\n", md(strings.Join(v.Path, "; ")))
	}
}
