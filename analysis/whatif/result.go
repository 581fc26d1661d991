package whatif

import (
	"math"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// MaxCheckRel is the self-check error above which predictions are withheld.
const MaxCheckRel = 0.01

// Run analyses g, replays scs (unless the self-check fails) and the
// critical path of the measured replay.
func Run(g *Graph, scs []Scenario) (*Report, []Prediction, []Path) {
	r := Analyze(g)
	var preds []Prediction
	if r.CheckRel <= MaxCheckRel {
		for _, s := range scs {
			preds = append(preds, g.Predict(s))
		}
	}
	return r, preds, g.CriticalPaths(g.Measured())
}

// Withheld says why predictions are missing, "" when the self-check holds.
func (r *Report) Withheld() string {
	if r.CheckRel <= MaxCheckRel {
		return ""
	}
	return "the replay misses a recorded step by more than 1 %: predictions withheld"
}

func ns(s float64) int64 { return int64(math.Round(s * 1e9)) }

// Summary is the Result section of a replay.
func Summary(g *Graph, r *Report, preds []Prediction, paths []Path) *result.WhatIf {
	w := &result.WhatIf{
		Ops: g.Len(), Groups: g.NumGroups() - g.Dissolved, DissolvedGroups: g.Dissolved,
		SelfCheckErrNs: r.CheckAbs * 1e9, SelfCheckRel: r.CheckRel,
		TraceStepNs: ns(r.TTrace), NoDelayStepNs: ns(r.TOri), IdealStepNs: ns(r.TIdeal),
		LaunchSlowdown: r.LaunchSlowdown, S: r.S,
		FixSlowWorkers: fixOf(r.MW), FixLastStage: fixOf(r.MS), Withheld: r.Withheld(),
	}
	for _, s := range r.ByRank {
		w.SByRank = append(w.SByRank, result.WhatIfShare{ID: int(s.ID), S: s.S})
	}
	for _, s := range r.ByStage {
		w.SByStage = append(w.SByStage, result.WhatIfShare{ID: int(s.ID), S: s.S})
	}
	for _, s := range r.ByDP {
		w.SByDP = append(w.SByDP, result.WhatIfShare{ID: int(s.ID), S: s.S})
	}
	for _, tw := range r.TopWorkers {
		w.SlowWorkers = append(w.SlowWorkers, tw.Rank)
	}
	for _, p := range preds {
		w.Scenarios = append(w.Scenarios, result.WhatIfScenario{Name: p.Name, Summary: p.Summary,
			StepNs: ns(p.StepS), GainNs: ns(p.GainS), Changed: p.Changed})
	}
	m := MeanPath(paths)
	for _, k := range SortedCategories(m) {
		w.CriticalPath = append(w.CriticalPath, result.PathSegment{Category: k, Ns: ns(m[k])})
	}
	return w
}

func fixOf(f Fix) result.WhatIfFix {
	return result.WhatIfFix{StepNs: ns(f.TRem), AddStepNs: ns(f.TAdd), M: f.M}
}
