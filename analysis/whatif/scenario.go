package whatif

import (
	"fmt"
	"slices"
	"strings"
)

// Prediction is one scenario's replayed step.
type Prediction struct {
	Name    string  `json:"name"`    // e.g. "fix rank 5"
	Summary string  `json:"summary"` // one line: what the scenario changes
	StepS   float64 `json:"step_s"`  // predicted mean step time (s)
	GainS   float64 `json:"gain_s"`  // recorded mean step − predicted
	Changed int     `json:"changed"` // ops whose inputs changed
}

// Scenario changes the measured inputs of a graph.
type Scenario struct {
	Name    string
	Summary string
	Apply   func(g *Graph) (Times, int)
}

// Predict replays s and compares it with the recorded step.
func (g *Graph) Predict(s Scenario) Prediction {
	t, n := s.Apply(g)
	_, step := g.StepTime(t)
	rec := mean(g.StepTimes(g.Start, g.End))
	return Prediction{Name: s.Name, Summary: s.Summary, StepS: step, GainS: rec - step, Changed: n}
}

// clone copies the measured inputs.
func (g *Graph) clone() Times {
	m := g.Measured()
	return Times{Dur: slices.Clone(m.Dur), Xfer: slices.Clone(m.Xfer), Delay: slices.Clone(m.Delay)}
}

// FixRank sets each compute of rank to the median duration of the same op
// on the other ranks of its stage (the k-th op of that type in the step:
// data-parallel and tensor-parallel peers run the same kernels in the same
// order); its delays and transfers stay.
func FixRank(rank int32) Scenario {
	return Scenario{
		Name:    fmt.Sprintf("fix rank %d", rank),
		Summary: fmt.Sprintf("rank %d's kernels take the median duration of the same kernels on the other ranks of its stage", rank),
		Apply:   func(g *Graph) (Times, int) { return g.fixRank(rank) },
	}
}

// slot names an op by its position: step, stage, type and ordinal.
type slot struct{ step, stage, typ, k int32 }

// slots returns each op's slot (ordinals count a worker's ops of one type
// in one step, in op order).
func (g *Graph) slots() []slot {
	type wk struct{ w, step, typ int32 }
	seen := map[wk]int32{}
	out := make([]slot, g.Len())
	for i, ty := range g.Type {
		k := wk{g.Worker[i], g.Step[i], ty}
		out[i] = slot{g.Step[i], g.Workers[g.Worker[i]].Stage, ty, seen[k]}
		seen[k]++
	}
	return out
}

func (g *Graph) fixRank(rank int32) (Times, int) {
	t := g.clone()
	w := int32(slices.IndexFunc(g.Workers, func(x Worker) bool { return x.Rank == rank }))
	if w < 0 {
		return t, 0
	}
	sl := g.slots()
	peers := map[slot][]float64{}
	for i := range g.Type {
		if g.Group[i] < 0 && g.Worker[i] != w {
			peers[sl[i]] = append(peers[sl[i]], g.Dur[i])
		}
	}
	n := 0
	for i := range g.Type {
		if v, ok := peers[sl[i]]; ok && g.Worker[i] == w && g.Group[i] < 0 {
			t.Dur[i] = median(v)
			n++
		}
	}
	return t, n
}

// BalanceStages scales every compute so that its type's typical duration
// on each stage (the median over the stage's ranks of their mean) becomes
// the median over the stages: stages doing the same work at different
// speeds run at the typical stage's; a slow rank stays as slow as it was
// next to its stage peers.
func BalanceStages() Scenario {
	return Scenario{
		Name:    "balance stages",
		Summary: "each kernel runs at the median over stages of its stage's typical duration (stage-specific kernels unchanged)",
		Apply:   func(g *Graph) (Times, int) { return g.balanceStages() },
	}
}

// typeStage is an op type on a stage.
type typeStage struct{ ty, stage int32 }

// stageTypical returns, per (type, stage) of the computes, the median over
// the stage's workers of their mean duration.
func (g *Graph) stageTypical() map[typeStage]float64 {
	type tw struct{ ty, w int32 }
	sum, cnt := map[tw]float64{}, map[tw]int{}
	for i, ty := range g.Type {
		if g.Group[i] < 0 && !g.Comm[ty] {
			k := tw{ty, g.Worker[i]}
			sum[k] += g.Dur[i]
			cnt[k]++
		}
	}
	per := map[typeStage][]float64{}
	for k, s := range sum {
		ts := typeStage{k.ty, g.Workers[k.w].Stage}
		per[ts] = append(per[ts], s/float64(cnt[k]))
	}
	out := make(map[typeStage]float64, len(per))
	for k, v := range per {
		out[k] = median(v)
	}
	return out
}

func (g *Graph) balanceStages() (Times, int) {
	t := g.clone()
	typical := g.stageTypical()
	byType := map[int32][]float64{}
	for k, v := range typical {
		byType[k.ty] = append(byType[k.ty], v)
	}
	n := 0
	for i, ty := range g.Type {
		v, ok := typical[typeStage{ty, g.Workers[g.Worker[i]].Stage}]
		if !ok || len(byType[ty]) < 2 || v == 0 {
			continue
		}
		t.Dur[i] *= median(byType[ty]) / v
		n++
	}
	return t, n
}

// HideAxis makes the collectives of axis cost nothing and wait for no one
// (perfectly overlapped); "dp" is "hide the DP sync".
func HideAxis(axis string) Scenario {
	return Scenario{
		Name:    "hide " + axis + " sync",
		Summary: "the " + axis + " collectives take no time and wait for no peer (fully overlapped)",
		Apply:   func(g *Graph) (Times, int) { return g.axisTimes(axis, true) },
	}
}

// ZeroAxis makes the transfers of axis's collectives 0; members still
// wait for each other.
func ZeroAxis(axis string) Scenario {
	return Scenario{
		Name:    "zero " + axis + " transfers",
		Summary: "the " + axis + " collectives transfer instantly; members still wait for the last to arrive",
		Apply:   func(g *Graph) (Times, int) { return g.axisTimes(axis, false) },
	}
}

func (g *Graph) axisTimes(axis string, solo bool) (Times, int) {
	t := g.clone()
	if solo {
		t.Solo = make([]bool, g.Len())
	}
	n := 0
	for i, ty := range g.Type {
		if !strings.EqualFold(g.Axis[ty], axis) || !g.Comm[ty] {
			continue
		}
		t.Xfer[i], t.Dur[i] = 0, 0
		if solo {
			t.Solo[i] = true
		}
		n++
	}
	return t, n
}

// NoLaunchDelays removes every launch delay (T_ori).
func NoLaunchDelays() Scenario {
	return Scenario{
		Name:    "remove launch delays",
		Summary: "every op starts as soon as its predecessors end (no CPU-side gaps)",
		Apply: func(g *Graph) (Times, int) {
			n := 0
			for _, d := range g.Delay {
				if d != 0 {
					n++
				}
			}
			return g.NoDelay(), n
		},
	}
}
