package analysis

import (
	"github.com/tpptrace/tpptrace/analysis/diagnose"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// memSkew is how far above the other stages' largest peak one stage's peak
// must be for a memory_peak finding.
const memSkew = 1.25

// memPeaks sets each rank's peak allocated GPU memory over its analysed
// step windows, from the trace's memory counters.
func (r *run) memPeaks() {
	for i := range r.ranks {
		rr := &r.ranks[i]
		for _, f := range rr.figs {
			if p, ok := r.t.CounterPeak(rr.rank, model.CounterMemAllocated, f.Window.Start, f.Window.End); ok {
				r.meas.ranks[i].PeakMemBytes = max(r.meas.ranks[i].PeakMemBytes, p)
			}
		}
	}
}

// stagePeaks sets each stage's peak: the largest of its ranks'.
func (r *run) stagePeaks() {
	for _, rs := range r.meas.ranks {
		if rs.PP >= 0 && rs.PP < len(r.sched.stages) {
			st := &r.sched.stages[rs.PP]
			st.PeakMemBytes = max(st.PeakMemBytes, rs.PeakMemBytes)
		}
	}
}

// memFinding reports the stage with the highest peak memory (the first on
// a tie) when it is memSkew times the largest peak of the others, or when
// GPipe keeps m > p microbatches live where 1F1B would keep at most p−s;
// else nil.
func memFinding(res *diagnose.Figures) *result.Finding {
	if len(res.Stages) < 2 {
		return nil
	}
	top, other := 0, int64(0)
	for i, st := range res.Stages {
		if st.PeakMemBytes > res.Stages[top].PeakMemBytes {
			top = i
		}
	}
	for i, st := range res.Stages {
		if i != top {
			other = max(other, st.PeakMemBytes)
		}
	}
	peak := res.Stages[top].PeakMemBytes
	gpipe := res.Schedule == "gpipe" && res.Microbatches > len(res.Stages)
	if other <= 0 || float64(peak) < memSkew*float64(other) && !gpipe {
		return nil
	}
	return &result.Finding{Kind: vocab.KindMemoryPeak, Severity: vocab.SevMedium,
		Headline: result.Say(vocab.SayMemoryPeak, result.Count("held", int64(heldMicrobatches(res, top))), result.Bytes("peak", peak),
			result.Ratio("ratio", float64(peak)/float64(other))).At(top),
		Evidence: stagePeakLines(res),
		Remedy:   memRemedy(res.Schedule),
		Ranks:    slices.Clone(res.Stages[top].Ranks), Stages: []int{top}}
}

// heldMicrobatches is how many microbatches' activations stage s keeps
// live at once under the detected schedule: m for GPipe, min(p−s, m) for
// 1F1B (seed §6.3).
func heldMicrobatches(res *diagnose.Figures, s int) int {
	m, p := res.Microbatches, len(res.Stages)
	if res.Schedule == "gpipe" || m <= 0 {
		return max(m, 0)
	}
	return min(p-s, m)
}

func memRemedy(schedule string) string {
	r := "re-partition layers away from this stage, or turn on activation checkpointing (recompute) for it"
	if schedule == "gpipe" {
		return "use 1F1B instead of GPipe (stage s then keeps at most p−s microbatches live); " + r
	}
	return r
}

func stagePeakLines(res *diagnose.Figures) []result.Statement {
	var out []result.Statement
	for _, st := range res.Stages {
		out = append(out, result.Say(vocab.SayStagePeak, result.Bytes("peak", st.PeakMemBytes)).At(st.Stage))
	}
	return out
}
