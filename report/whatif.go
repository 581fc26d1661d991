package report

import (
	"fmt"
	"io"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// whatifText writes the what-if replay: self-check, the step without
// delays and at ideal, M_W and M_S, the scenarios and the critical path.
func whatifText(w io.Writer, wi *result.WhatIf) {
	fmt.Fprintf(w, "What if (replay of %s ops, %s sync groups; self-check within %s, %.2g of the step):\n",
		vocab.Count(int64(wi.Ops)), vocab.Count(int64(wi.Groups)), vocab.Duration(int64(wi.SelfCheckErrNs)), wi.SelfCheckRel)
	fmt.Fprintf(w, "  step %s; without launch delays %s; ideal %s (S %.3f)\n",
		vocab.Duration(wi.TraceStepNs), vocab.Duration(wi.NoDelayStepNs), vocab.Duration(wi.IdealStepNs), wi.S)
	fmt.Fprintf(w, "  fix the slow workers %v: %s (M_W %.3f); fix the last stage: %s (M_S %.3f)\n",
		wi.SlowWorkers, vocab.Duration(wi.FixSlowWorkers.StepNs), wi.FixSlowWorkers.M,
		vocab.Duration(wi.FixLastStage.StepNs), wi.FixLastStage.M)
	if wi.Withheld != "" {
		fmt.Fprintf(w, "  %s\n", wi.Withheld)
	}
	for _, s := range wi.Scenarios {
		fmt.Fprintf(w, "  %-22s %s  (%s)\n", s.Name, vocab.Duration(s.StepNs), gainText(s.GainNs, wi.TraceStepNs))
	}
	if len(wi.CriticalPath) > 0 {
		fmt.Fprint(w, "  critical path:")
		for i, c := range wi.CriticalPath {
			if i == 5 {
				break
			}
			fmt.Fprintf(w, " %s %s;", c.Category, vocab.Duration(c.Ns))
		}
		fmt.Fprintln(w)
	}
}

func gainText(gain, step int64) string {
	if step <= 0 {
		return vocab.Duration(gain)
	}
	sign := "−"
	if gain < 0 {
		sign, gain = "+", -gain
	}
	return sign + vocab.Duration(gain) + ", " + sign + vocab.Percent(float64(gain)/float64(step))
}
