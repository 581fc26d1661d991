package diagnose

import "github.com/tpptrace/tpptrace/analysis/result"

// Imbalance sets res.BottleneckStage and res.StageImbalance from the stage
// compute times and returns the first-order gain of re-partitioning: the
// step time saved if every stage took the mean stage compute, assuming the
// step scales with the slowest stage.
func Imbalance(res *result.Result) int64 {
	if len(res.Stages) == 0 {
		res.BottleneckStage = -1
		return 0
	}
	var sum, top int64
	best := 0
	for i, s := range res.Stages {
		sum += s.ComputeNs
		if s.ComputeNs > top {
			best, top = i, s.ComputeNs
		}
	}
	res.BottleneckStage = res.Stages[best].Stage
	mean := float64(sum) / float64(len(res.Stages))
	if mean <= 0 {
		res.StageImbalance = 1
		return 0
	}
	res.StageImbalance = float64(top) / mean
	return int64(float64(res.StepNs) * (1 - mean/float64(top)))
}
