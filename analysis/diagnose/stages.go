package diagnose

import "github.com/tpptrace/tpptrace/analysis/result"

// Verdict is the stage-imbalance verdict: the bottleneck stage (-1 without
// stages), the imbalance max/mean of stage compute (0 without stages) and
// the first-order gain of re-partitioning.
type Verdict struct {
	Stage  int
	Ratio  float64
	GainNs int64
}

// Imbalance names the bottleneck stage and the stage imbalance from the
// stage compute times, with the first-order gain of re-partitioning: the
// step time saved if every stage took the mean stage compute, assuming the
// step (stepNs) scales with the slowest stage.
func Imbalance(stages []result.StageStats, stepNs int64) Verdict {
	if len(stages) == 0 {
		return Verdict{Stage: -1}
	}
	var sum, top int64
	best := 0
	for i, s := range stages {
		sum += s.ComputeNs
		if s.ComputeNs > top {
			best, top = i, s.ComputeNs
		}
	}
	v := Verdict{Stage: stages[best].Stage}
	mean := float64(sum) / float64(len(stages))
	if mean <= 0 {
		v.Ratio = 1
		return v
	}
	v.Ratio = float64(top) / mean
	v.GainNs = int64(float64(stepNs) * (1 - mean/float64(top)))
	return v
}
