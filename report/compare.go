package report

import (
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// DefaultThreshold is the relative growth that counts as a regression when
// none is given (5 %), for `tpptrace compare` and `report --baseline`.
const DefaultThreshold = 0.05

// Delta kinds: a figure of both runs, a rank named slow or late in either
// run, a finding present in one run only.
const (
	DeltaFigure  = "figure"
	DeltaRank    = "rank"
	DeltaFinding = "finding"
)

// Delta is one compared figure. Regressed is set when New exceeds Base by
// more than the threshold (relative) and, for times, by more than the
// noise floor; Improved is the mirror image and never fails the gate.
// Rank deltas have Unit "named" and values 0 (not named) or 1 (named);
// finding deltas have the finding's cost per step, 0 in the run without it.
type Delta struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind"` // DeltaFigure, DeltaRank, DeltaFinding
	Base      float64 `json:"base"`
	New       float64 `json:"new"`
	Unit      string  `json:"unit"` // "ns", "fraction", "bytes", "tokens/s" or "named"
	Regressed bool    `json:"regressed"`
	Improved  bool    `json:"improved"`
	// HigherBetter marks figures (tokens/s, MFU) that regress when they fall.
	HigherBetter bool `json:"higher_is_better,omitempty"`
}

// Change is (New−Base)/Base, 0 when both are 0, and ±1 when Base is 0.
func (d Delta) Change() float64 {
	if d.Base == 0 {
		switch {
		case d.New == 0:
			return 0
		case d.New < 0:
			return -1
		}
		return 1
	}
	return (d.New - d.Base) / d.Base
}

// gate decides regressions: relative threshold, and the floor (0.5 % of
// the base step) that times must also move by so that tiny figures do not
// flap; fractions must move by fractionFloor.
type gate struct {
	threshold, floor float64
}

func newGate(base *result.Result, threshold float64) gate {
	return gate{threshold: threshold, floor: 0.005 * float64(base.StepNs)}
}

// fractionFloor is the floor of fractions (half a percentage point of the
// step for a bubble fraction, like the floor of times).
const fractionFloor = 0.005

// bytesFloor is the floor of memory figures: 1 MiB.
const bytesFloor = 1 << 20

// judge sets d's Regressed and Improved; a HigherBetter figure regresses
// when it falls.
func (g gate) judge(d Delta) Delta {
	c, moved, floor := d.Change(), d.New-d.Base, g.floor
	switch d.Unit {
	case "fraction":
		floor = fractionFloor
	case "bytes":
		floor = bytesFloor
	case "tokens/s":
		floor = 0.005 * d.Base
	}
	if d.HigherBetter {
		c, moved = -c, -moved
	}
	d.Regressed = c > g.threshold && moved > floor
	d.Improved = c < -g.threshold && -moved > floor
	return d
}

// Compare lines up the figures the seed's performance gate keeps (§6.9),
// in this order: step time, tokens/s and MFU (when both runs have them;
// they regress when they fall), each stage's bubble, exposed time per axis (for
// PP, the transfer: what the exposed-PP finding counts), the exposed wait
// for late or slow members per axis (not PP: that wait is the bubble), the
// slowest stage's compute, each stage's peak GPU memory (when either run
// has memory events; it regresses past threshold and 1 MiB), the ranks named slow or late in either run (a
// rank newly named is a regression), and the findings present in one run
// only. A figure regresses when it grows by more than threshold (0.05 =
// 5 %) and, for times, by more than 0.5 % of the base step (fractions: by
// more than half a percentage point; tokens/s by more than 0.5 % of the
// base).
func Compare(base, cur *result.Result, threshold float64) []Delta {
	g := newGate(base, threshold)
	var ds []Delta
	add := func(name, unit string, b, n float64) {
		ds = append(ds, g.judge(Delta{Name: name, Kind: DeltaFigure, Base: b, New: n, Unit: unit}))
	}
	add("step", "ns", float64(base.StepNs), float64(cur.StepNs))
	ds = append(ds, throughputDeltas(base, cur, g)...)
	names := deltaNames(base, cur)
	for i := 0; i < max(len(base.Stages), len(cur.Stages)); i++ {
		add(names.bubble(i), "fraction", stageBubble(base, i), stageBubble(cur, i))
	}
	for _, ax := range comparedAxes(base, cur, "TP", "PP", "DP") {
		add("exposed "+ax, "ns", meanExposed(base, ax), meanExposed(cur, ax))
	}
	for _, ax := range comparedAxes(base, cur, "TP", "DP") {
		add("exposed wait "+ax, "ns", meanOf(base, ax, exposedWait), meanOf(cur, ax, exposedWait))
	}
	add(names.compute, "ns", slowest(base), slowest(cur))
	for i := 0; i < max(len(base.Stages), len(cur.Stages)); i++ {
		if b, n := stagePeak(base, i), stagePeak(cur, i); b > 0 || n > 0 {
			add(names.peak(i), "bytes", b, n)
		}
	}
	ds = append(ds, rankDeltas(base, cur)...)
	return append(ds, findingDeltas(base, cur, g)...)
}

// comparedAxes is always plus CP, EP and A2A when either run has exposed
// time on them.
func comparedAxes(base, cur *result.Result, always ...string) []string {
	out := always
	for _, ax := range []string{"CP", "EP", "A2A"} {
		if meanExposed(base, ax) > 0 || meanExposed(cur, ax) > 0 {
			out = append(out, ax)
		}
	}
	return out
}

func stageBubble(r *result.Result, i int) float64 {
	if i < len(r.Stages) {
		return r.Stages[i].BubbleFraction
	}
	return 0
}

func meanExposed(r *result.Result, ax string) float64 { return meanOf(r, ax, exposedOf) }

// meanOf is the mean over ranks of a per-rank figure of axis ax.
func meanOf(r *result.Result, ax string, fig func(result.RankStats, string) int64) float64 {
	if len(r.Ranks) == 0 {
		return 0
	}
	var s int64
	for _, rk := range r.Ranks {
		s += fig(rk, ax)
	}
	return float64(s) / float64(len(r.Ranks))
}

// exposedOf is a rank's exposed time of axis as the findings count it: for
// PP, when the Result splits the bubble, only the PP transfer in it (the
// wait for the neighbour is bubble, compared per stage).
func exposedOf(rk result.RankStats, ax string) int64 {
	if ax == "PP" && rk.BubblePPWaitNs+rk.BubblePPTransferNs > 0 {
		return rk.BubblePPTransferNs
	}
	return rk.ExposedNs[ax]
}

// exposedWait is the part of a rank's exposed time of axis spent waiting
// for the last member of its collectives: what late and slow members cost.
func exposedWait(rk result.RankStats, ax string) int64 { return rk.ExposedWaitNs[ax] }

func slowest(r *result.Result) float64 {
	var m int64
	for _, s := range r.Stages {
		m = max(m, s.ComputeNs)
	}
	return float64(m)
}

// Regressions counts the regressed deltas.
func Regressions(ds []Delta) int {
	n := 0
	for _, d := range ds {
		if d.Regressed {
			n++
		}
	}
	return n
}

// stagePeak is stage i's peak memory, 0 when absent.
func stagePeak(r *result.Result, i int) float64 {
	if i >= len(r.Stages) {
		return 0
	}
	return float64(r.Stages[i].PeakMemBytes)
}

// throughputDeltas compares tokens/s and MFU when both runs have them.
func throughputDeltas(base, cur *result.Result, g gate) []Delta {
	var ds []Delta
	for _, f := range []struct {
		name, unit string
		b, n       float64
	}{{"tokens/s", "tokens/s", base.TokensPerS, cur.TokensPerS}, {"MFU", "fraction", base.MFU, cur.MFU}} {
		if f.b > 0 && f.n > 0 {
			ds = append(ds, g.judge(Delta{Name: f.name, Kind: DeltaFigure, Base: f.b, New: f.n, Unit: f.unit, HigherBetter: true}))
		}
	}
	return ds
}

// figureNames names the per-stage figures of a comparison: "stage 0
// bubble", "slowest stage compute", "stage 0 peak memory"; when neither run
// has a pipeline, "idle GPU" (the one stage's bubble is idle time),
// "compute" and "peak memory".
type figureNames struct {
	bubble, peak func(stage int) string
	compute      string
}

func deltaNames(base, cur *result.Result) figureNames {
	if NoPipeline(base) && NoPipeline(cur) {
		return figureNames{bubble: func(int) string { return "idle GPU" }, peak: func(int) string { return "peak memory" }, compute: "compute"}
	}
	return figureNames{
		bubble:  func(i int) string { return fmt.Sprintf("stage %d bubble", i) },
		peak:    func(i int) string { return fmt.Sprintf("stage %d peak memory", i) },
		compute: "slowest stage compute",
	}
}
