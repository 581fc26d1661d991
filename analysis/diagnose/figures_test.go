package diagnose

import "github.com/tpptrace/tpptrace/analysis/result"

// figuresOf is what diagnose reads of a test's Result.
func figuresOf(res *result.Result) *Figures {
	return &Figures{StepNs: res.StepNs, Layout: res.Layout, Ranks: res.Ranks, Stages: res.Stages, Schedule: res.Schedule,
		Microbatches: res.Microbatches, VirtualStages: res.VirtualStages, Comms: res.Comms,
		BottleneckStage: res.BottleneckStage, StageImbalance: res.StageImbalance, SlowRanks: res.SlowRanks}
}

// imbalance sets res's verdict as the analysis does and returns the gain.
func imbalance(res *result.Result) int64 {
	v := Imbalance(res.Stages, res.StepNs)
	res.BottleneckStage, res.StageImbalance = v.Stage, v.Ratio
	return v.GainNs
}
