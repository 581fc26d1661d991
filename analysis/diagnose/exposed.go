package diagnose

import (
	"maps"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// The bubble, PP and exposed-communication findings share out the time a
// rank's GPU computes nothing, so that no time is counted twice: the bubble
// keeps its idle time and the time PP send/recv kernels wait for their
// neighbour; the PP finding gets the time they transfer with nothing else
// running; each other axis gets its exposed time less the wait for a named
// slow rank, which the slow-rank finding claims.

func bubbleFinding(fig *Figures) []result.Finding {
	if fig.Layout.PP <= 1 {
		return nil
	}
	bubble, ranks := meanRanks(fig, func(r result.RankStats) int64 { return r.BubbleNs })
	xfer, _ := meanRanks(fig, func(r result.RankStats) int64 { return r.BubblePPTransferNs })
	wait, _ := meanRanks(fig, func(r result.RankStats) int64 { return r.BubblePPWaitNs })
	cost := bubble - xfer
	if cost <= 0 {
		return nil
	}
	f := result.Finding{Kind: vocab.KindBubble, CostNs: cost, Ranks: ranks, Remedy: bubbleRemedy(fig),
		Headline: result.Say(vocab.SayBubble, result.Ns("cost", cost), result.Frac("share", share(cost, fig.StepNs)))}
	for _, s := range fig.Stages {
		f.Stages = append(f.Stages, s.Stage)
		f.Evidence = append(f.Evidence, stageBubbleLine(fig, s))
	}
	if wait > 0 || xfer > 0 {
		f.Evidence = append(f.Evidence, result.Say(vocab.SayBubbleSplit, result.Ns("bubble", bubble), result.Ns("wait", wait),
			result.Ns("idle", max(cost-wait, 0)), result.Ns("transfer", xfer)))
	}
	if line, ok := bubbleExcess(fig); ok {
		f.Evidence = append(f.Evidence, line)
	}
	return []result.Finding{f}
}

// stageBubbleLine is one stage's measured bubble against the ideal, or
// alone when m is unknown (no ideal is computed from m = 0).
func stageBubbleLine(fig *Figures, s result.StageStats) result.Statement {
	if fig.Microbatches <= 0 {
		return result.Say(vocab.SayStageNoIdeal, result.Frac("bubble", s.BubbleFraction)).At(s.Stage)
	}
	return result.Say(vocab.SayStageBubble, result.Frac("bubble", s.BubbleFraction), result.Frac("ideal", s.IdealBubbleFraction),
		result.Count("p", int64(fig.Layout.PP)), result.Count("m", int64(fig.Microbatches))).At(s.Stage).Quoting("schedule", fig.Schedule)
}

// bubbleExcess says how far the stages' bubble exceeds the ideal when a
// stage imbalance or a slow rank stretches it (their findings estimate what
// fixing them saves, which includes part of this bubble).
func bubbleExcess(fig *Figures) (result.Statement, bool) {
	if len(fig.Stages) == 0 || fig.Microbatches <= 0 || (fig.StageImbalance < 1.05 && len(fig.SlowRanks) == 0) {
		return result.Statement{}, false
	}
	var sum float64
	for _, s := range fig.Stages {
		sum += max(s.BubbleFraction-s.IdealBubbleFraction, 0)
	}
	excess := int64(sum / float64(len(fig.Stages)) * float64(fig.StepNs))
	if excess <= 0 {
		return result.Statement{}, false
	}
	return result.Say(vocab.SayBubbleExcess, result.Ns("excess", excess)), true
}

// waitClaims are the exposed waits that the slow-rank and late-rank
// findings claim, per rank and axis, summed over the waiting members, per step.
type waitClaims struct {
	slow, late map[int32]map[string]int64
}

func exposedFinding(fig *Figures, ax string, claims waitClaims) []result.Finding {
	exposed, _ := meanRanks(fig, func(r result.RankStats) int64 { return r.ExposedNs[ax] })
	if exposed <= 0 {
		return nil
	}
	xfer, _ := meanRanks(fig, func(r result.RankStats) int64 { return r.ExposedTransferNs[ax] })
	comm, _ := meanRanks(fig, func(r result.RankStats) int64 { return r.CommNs[ax] })
	f := result.Finding{Kind: vocab.ExposedKind(ax), Remedy: exposedRemedy(fig, ax, exposed, comm),
		Evidence: []result.Statement{result.Say(vocab.SayCommOverlap, result.Ns("comm", comm), result.Frac("overlap", 1-share(exposed, comm))).On(ax)}}
	if ax == "PP" {
		ppShare(fig, &f, exposed, xfer)
	} else {
		axisShare(fig, &f, ax, exposed, xfer, claims)
	}
	if f.CostNs <= 0 {
		return nil
	}
	for _, s := range fig.Stages {
		if s.ExposedNs[ax] > 0 {
			f.Stages = append(f.Stages, s.Stage)
		}
	}
	return []result.Finding{f}
}

// hasSplit reports whether the ranks carry the wait/transfer split of
// exposed time (Results written before it existed do not).
func hasSplit(fig *Figures) bool {
	return slices.ContainsFunc(fig.Ranks, func(r result.RankStats) bool { return r.ExposedTransferNs != nil })
}

func remedyOf(ax string) string {
	if r, ok := map[string]string{"TP": remedyTP, "PP": remedyPP, "DP": remedyDP}[ax]; ok {
		return r
	}
	return remedyOther
}

// ppShare: the PP finding costs the transfer time of send/recv kernels
// that nothing else overlaps; their wait for the neighbour is bubble.
func ppShare(fig *Figures, f *result.Finding, exposed, xfer int64) {
	f.CostNs, f.Ranks = meanRanks(fig, func(r result.RankStats) int64 { return r.BubblePPTransferNs })
	f.Headline = result.Say(vocab.SayExposedPP, result.Ns("cost", f.CostNs))
	f.Evidence = append(f.Evidence, result.Say(vocab.SayPPSplit, result.Ns("exposed", exposed), result.Ns("wait", max(exposed-xfer, 0)),
		result.Ns("transfer", xfer)))
}

// axisShare: an exposed collective costs its exposed time less the wait
// for named slow and late ranks, which their findings claim.
func axisShare(fig *Figures, f *result.Finding, ax string, exposed, xfer int64, claims waitClaims) {
	wait := exposed
	if hasSplit(fig) {
		wait = max(exposed-xfer, 0)
	}
	slow, slowWho := claimed(fig, claims.slow, ax, wait)
	late, lateWho := claimed(fig, claims.late, ax, wait-slow)
	f.CostNs = exposed - slow - late
	_, f.Ranks = meanRanks(fig, func(r result.RankStats) int64 { return r.ExposedNs[ax] })
	f.Headline = result.Say(vocab.SayExposed, result.Ns("exposed", exposed)).On(ax)
	if f.CostNs < exposed {
		f.Headline = f.Headline.With(result.Ns("cost", f.CostNs))
	}
	if hasSplit(fig) {
		f.Evidence = append(f.Evidence, result.Say(vocab.SayExposedSplit, result.Ns("exposed", exposed), result.Ns("wait", wait), result.Ns("transfer", xfer)))
	}
	if slow > 0 {
		f.Evidence = append(f.Evidence, result.Say(vocab.SaySlowClaim, result.Ns("wait", slow)).About(slowWho...).On(ax))
	}
	if late > 0 {
		f.Evidence = append(f.Evidence, result.Say(vocab.SayLateClaim, result.Ns("wait", late)).About(lateWho...).On(ax))
	}
}

// claimed is the mean over ranks of the waits on axis ax that the ranks of
// waits claim, capped at limit, and who they are.
func claimed(fig *Figures, waits map[int32]map[string]int64, ax string, limit int64) (int64, []int) {
	var sum int64
	var who []int
	for _, rk := range slices.Sorted(maps.Keys(waits)) {
		if w := waits[rk][ax]; w > 0 {
			sum += w
			who = append(who, int(rk))
		}
	}
	return min(sum/int64(max(len(fig.Ranks), 1)), max(limit, 0)), who
}
