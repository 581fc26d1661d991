package diagnose

import "github.com/tpptrace/tpptrace/analysis/result"

// Figures are what a diagnosis reads: the measured per-rank and per-stage
// figures, the layout and schedule, and the verdicts of the earlier
// diagnose calls (the bottleneck stage, the slow ranks). The caller owns
// them; diagnose never writes them and returns what it finds instead.
type Figures struct {
	StepNs          int64 // mean analysed step
	Layout          result.Layout
	Ranks           []result.RankStats
	Stages          []result.StageStats
	Schedule        string
	Microbatches    int
	VirtualStages   int
	Comms           []result.CommStats
	BottleneckStage int     // Imbalance's Verdict.Stage
	StageImbalance  float64 // Imbalance's Verdict.Ratio
	SlowRanks       []result.SlowRank
}
