package analysis

import (
	"github.com/tpptrace/tpptrace/analysis/diagnose"
	"github.com/tpptrace/tpptrace/analysis/result"
)

// diagnoseStep names the bottleneck stage, the slow ranks, summarizes the
// communicators, ranks the findings and keeps per-step and timeline views.
//
// The arrivals, the per-rank steps and the timeline read only what the
// steps before wrote (and the rank index, built first): they are computed
// on two other goroutines beside the rest (apart), each into its own
// field, the timeline on its own (on two cores the three parts take
// turns, not one goroutine with two thirds of the work).
func diagnoseStep(r *run) error {
	n := len(r.steps.Iters)
	r.rankSlot(0) // the rank index, before the goroutines read it
	var arrivals []diagnose.Arrival
	waitTimeline := apart(func() { r.diag.timeline = r.timeline(r.representative()) })
	wait := apart(func() {
		arrivals = r.arrivals()
		r.diag.rankSteps = r.rankSteps()
	})
	r.stageBubbleParts()
	r.diag.verdict = diagnose.Imbalance(r.sched.stages, r.prep.stepNs)
	blame := diagnose.BlameOf(&r.tm, n, r.inStep)
	r.diag.slow = diagnose.SlowRanks(r.figures(), blame)
	r.diag.comms = diagnose.Comms(r.t, &r.tm, n, r.inStep)
	in := diagnose.Inputs{ImbalanceGainNs: r.diag.verdict.GainNs, Blame: blame, SlowWaitNs: r.slowWaits(), GPULines: r.gpuStep()}
	for _, p := range r.layout.Problems {
		in.Problems = append(in.Problems, diagnose.Problem{Kind: p.Kind, Says: p.Says, Ranks: p.Ranks})
	}
	r.stagePeaks()
	if f := memFinding(r.figures()); f != nil {
		in.Extra = append(in.Extra, *f)
	}
	if f := missingFinding(r.missing); f != nil { // ranked first: it qualifies every other
		in.Extra = append(in.Extra, *f)
	}
	wait()
	waitTimeline()
	in.Arrivals = arrivals
	r.diag.findings = diagnose.Findings(r.figures(), in)
	return nil
}

func (r *run) rankSteps() []result.RankStep {
	var out []result.RankStep
	for _, rr := range r.ranks {
		for k, f := range rr.figs {
			out = append(out, result.RankStep{Rank: int(rr.rank), Iteration: int(r.steps.Iters[k]),
				StepNs: f.Window.Len(), ComputeNs: f.Compute, BubbleNs: f.Bubble})
		}
	}
	return out
}

// representative is the analysed step whose length is the median.
func (r *run) representative() int {
	its := r.prep.iters
	best := 0
	for i := range its {
		below, above := 0, 0
		for j := range its {
			if its[j].DurationNs < its[i].DurationNs {
				below++
			} else if its[j].DurationNs > its[i].DurationNs {
				above++
			}
		}
		if below <= len(its)/2 && above <= len(its)/2 {
			return i
		}
		best = i
	}
	return best
}
