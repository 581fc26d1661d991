package report

import (
	"math"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// stepSpread is the larger standard deviation of the two runs' step
// durations; 0 unless a run has two steps or more.
func stepSpread(base, cur *result.Result) float64 {
	return max(sd(iterationDurations(base)), sd(iterationDurations(cur)))
}

func iterationDurations(r *result.Result) []float64 {
	var out []float64
	for _, it := range r.Iterations {
		out = append(out, float64(it.DurationNs))
	}
	return out
}

// bubbleSpread is the larger standard deviation over steps of stage i's
// bubble (the mean over its ranks of each step's bubble).
func bubbleSpread(base, cur *result.Result, i int) float64 {
	f := func(rs result.RankStep) int64 { return rs.BubbleNs }
	return max(sd(stageSeries(base, i, f)), sd(stageSeries(cur, i, f)))
}

// computeSpread is the larger standard deviation over steps of the
// slowest stage's compute.
func computeSpread(base, cur *result.Result) float64 {
	f := func(rs result.RankStep) int64 { return rs.ComputeNs }
	return max(sd(stageSeries(base, slowestStage(base), f)), sd(stageSeries(cur, slowestStage(cur), f)))
}

func slowestStage(r *result.Result) int {
	best := -1
	for i, s := range r.Stages {
		if best < 0 || s.ComputeNs > r.Stages[best].ComputeNs {
			best = i
		}
	}
	return best
}

// stageSeries is, per analysed step, the mean of fig over stage i's ranks
// (from the Result's rank_steps); nil when the Result has none.
func stageSeries(r *result.Result, i int, fig func(result.RankStep) int64) []float64 {
	if i < 0 || i >= len(r.Stages) {
		return nil
	}
	sum, n := map[int]float64{}, map[int]int{}
	for _, rs := range r.RankSteps {
		if slices.Contains(r.Stages[i].Ranks, rs.Rank) {
			sum[rs.Iteration] += float64(fig(rs))
			n[rs.Iteration]++
		}
	}
	var out []float64
	for it, s := range sum {
		out = append(out, s/float64(n[it]))
	}
	slices.Sort(out)
	return out
}

// sd is the sample standard deviation, 0 for fewer than two values.
func sd(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	var m, ss float64
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	for _, x := range v {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss / float64(len(v)-1))
}

// periodSpread is the larger standard deviation over steps of the median
// rank step (from rank_steps).
func periodSpread(base, cur *result.Result) float64 {
	return max(sd(medianRankSteps(base)), sd(medianRankSteps(cur)))
}

// medianRankSteps is, per analysed step, the median over ranks of their
// step_ns (the upper middle for an even count), as period_ns is over the
// ranks' means.
func medianRankSteps(r *result.Result) []float64 {
	by := map[int][]int64{}
	for _, rs := range r.RankSteps {
		by[rs.Iteration] = append(by[rs.Iteration], rs.StepNs)
	}
	var out []float64
	for _, v := range by {
		slices.Sort(v)
		out = append(out, float64(v[len(v)/2]))
	}
	slices.Sort(out)
	return out
}
