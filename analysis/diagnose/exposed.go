package diagnose

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/model/vocab"
)

// The bubble, PP and exposed-communication findings share out the time a
// rank's GPU computes nothing, so that no time is counted twice: the bubble
// keeps its idle time and the time PP send/recv kernels wait for their
// neighbour; the PP finding gets the time they transfer with nothing else
// running; each other axis gets its exposed time less the wait for a named
// slow rank, which the slow-rank finding claims.

func bubbleFinding(res *result.Result) []result.Finding {
	if res.Layout.PP <= 1 {
		return nil
	}
	bubble, ranks := meanRanks(res, func(r result.RankStats) int64 { return r.BubbleNs })
	xfer, _ := meanRanks(res, func(r result.RankStats) int64 { return r.BubblePPTransferNs })
	wait, _ := meanRanks(res, func(r result.RankStats) int64 { return r.BubblePPWaitNs })
	cost := bubble - xfer
	if cost <= 0 {
		return nil
	}
	f := result.Finding{Kind: vocab.KindBubble, CostNs: cost, Ranks: ranks, Remedy: bubbleRemedy(res),
		Summary: fmt.Sprintf("pipeline bubble: GPUs wait %s per step (%s of the step)", dur(cost), pct(share(cost, res.StepNs)))}
	for _, s := range res.Stages {
		f.Stages = append(f.Stages, s.Stage)
		f.Evidence = append(f.Evidence, stageBubbleLine(res, s))
	}
	if wait > 0 || xfer > 0 {
		f.Evidence = append(f.Evidence, fmt.Sprintf("the bubble measures %s per step: %s pipeline send/recv waiting for the neighbour, %s idle or copying, "+
			"and %s transferring, counted under exposed PP communication", dur(bubble), dur(wait), dur(max(cost-wait, 0)), dur(xfer)))
	}
	if line := bubbleExcess(res); line != "" {
		f.Evidence = append(f.Evidence, line)
	}
	return []result.Finding{f}
}

// stageBubbleLine is one stage's measured bubble against the ideal, or
// alone when m is unknown (no ideal is computed from m = 0).
func stageBubbleLine(res *result.Result, s result.StageStats) string {
	if res.Microbatches <= 0 {
		return fmt.Sprintf("stage %d: bubble %s measured; no ideal: the trace carries no cue for the microbatches", s.Stage, pct(s.BubbleFraction))
	}
	return fmt.Sprintf("stage %d: bubble %s measured vs %s ideal (%s, p=%d, m=%d)",
		s.Stage, pct(s.BubbleFraction), pct(s.IdealBubbleFraction), res.Schedule, res.Layout.PP, res.Microbatches)
}

// bubbleExcess says how far the stages' bubble exceeds the ideal when a
// stage imbalance or a slow rank stretches it (their findings estimate what
// fixing them saves, which includes part of this bubble).
func bubbleExcess(res *result.Result) string {
	if len(res.Stages) == 0 || res.Microbatches <= 0 || (res.StageImbalance < 1.05 && len(res.SlowRanks) == 0) {
		return ""
	}
	var sum float64
	for _, s := range res.Stages {
		sum += max(s.BubbleFraction-s.IdealBubbleFraction, 0)
	}
	excess := int64(sum / float64(len(res.Stages)) * float64(res.StepNs))
	if excess <= 0 {
		return ""
	}
	return fmt.Sprintf("%s per step of it is above the ideal: stages waiting for a slower stage or rank, which the imbalance and slow-rank findings would also recover", dur(excess))
}

// waitClaims are the exposed waits that the slow-rank and late-rank
// findings claim, per rank and axis, summed over the waiting members, per step.
type waitClaims struct {
	slow, late map[int32]map[string]int64
}

func exposedFinding(res *result.Result, ax string, claims waitClaims) []result.Finding {
	exposed, _ := meanRanks(res, func(r result.RankStats) int64 { return r.ExposedNs[ax] })
	if exposed <= 0 {
		return nil
	}
	xfer, _ := meanRanks(res, func(r result.RankStats) int64 { return r.ExposedTransferNs[ax] })
	comm, _ := meanRanks(res, func(r result.RankStats) int64 { return r.CommNs[ax] })
	f := result.Finding{Kind: vocab.ExposedKind(ax), Remedy: exposedRemedy(res, ax, exposed, comm),
		Evidence: []string{fmt.Sprintf("%s kernels run %s per step on average; %s of it overlaps compute", ax, dur(comm), pct(1-share(exposed, comm)))}}
	if ax == "PP" {
		ppShare(res, &f, exposed, xfer)
	} else {
		axisShare(res, &f, ax, exposed, xfer, claims)
	}
	if f.CostNs <= 0 {
		return nil
	}
	for _, s := range res.Stages {
		if s.ExposedNs[ax] > 0 {
			f.Stages = append(f.Stages, s.Stage)
		}
	}
	return []result.Finding{f}
}

// hasSplit reports whether the ranks carry the wait/transfer split of
// exposed time (Results written before it existed do not).
func hasSplit(res *result.Result) bool {
	return slices.ContainsFunc(res.Ranks, func(r result.RankStats) bool { return r.ExposedTransferNs != nil })
}

func remedyOf(ax string) string {
	if r, ok := map[string]string{"TP": remedyTP, "PP": remedyPP, "DP": remedyDP}[ax]; ok {
		return r
	}
	return remedyOther
}

// ppShare: the PP finding costs the transfer time of send/recv kernels
// that nothing else overlaps; their wait for the neighbour is bubble.
func ppShare(res *result.Result, f *result.Finding, exposed, xfer int64) {
	f.CostNs, f.Ranks = meanRanks(res, func(r result.RankStats) int64 { return r.BubblePPTransferNs })
	f.Summary = fmt.Sprintf("exposed PP communication: send/recv transfer %s per step with no compute or other communication to hide it", dur(f.CostNs))
	f.Evidence = append(f.Evidence, fmt.Sprintf("of the %s exposed: %s waiting for the neighbour (counted in the pipeline bubble), %s transferring",
		dur(exposed), dur(max(exposed-xfer, 0)), dur(xfer)))
}

// axisShare: an exposed collective costs its exposed time less the wait
// for named slow and late ranks, which their findings claim.
func axisShare(res *result.Result, f *result.Finding, ax string, exposed, xfer int64, claims waitClaims) {
	wait := exposed
	if hasSplit(res) {
		wait = max(exposed-xfer, 0)
	}
	slow, slowWho := claimed(res, claims.slow, ax, wait)
	late, lateWho := claimed(res, claims.late, ax, wait-slow)
	f.CostNs = exposed - slow - late
	_, f.Ranks = meanRanks(res, func(r result.RankStats) int64 { return r.ExposedNs[ax] })
	f.Summary = fmt.Sprintf("exposed %s communication: %s per step not hidden under compute", vocab.AxisWords(ax), dur(exposed))
	if f.CostNs < exposed {
		f.Summary += fmt.Sprintf(", %s of it not waiting for a slow or late rank", dur(f.CostNs))
	}
	if hasSplit(res) {
		f.Evidence = append(f.Evidence, fmt.Sprintf("of the %s exposed: %s waiting for the last member to arrive, %s transferring", dur(exposed), dur(wait), dur(xfer)))
	}
	if slow > 0 {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s of that wait (mean over ranks) is for slow rank %s, counted under the slow-rank finding", dur(slow), slowWho))
	}
	if late > 0 {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s of that wait (mean over ranks) is for late rank %s, which arrives last without computing more, counted under the late-rank finding", dur(late), lateWho))
	}
}

// claimed is the mean over ranks of the waits on axis ax that the ranks of
// waits claim, capped at limit, and who they are ("3, 5").
func claimed(res *result.Result, waits map[int32]map[string]int64, ax string, limit int64) (int64, string) {
	var sum int64
	var who []string
	for _, rk := range slices.Sorted(maps.Keys(waits)) {
		if w := waits[rk][ax]; w > 0 {
			sum += w
			who = append(who, fmt.Sprint(rk))
		}
	}
	return min(sum/int64(max(len(res.Ranks), 1)), max(limit, 0)), strings.Join(who, ", ")
}
