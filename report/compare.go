package report

import (
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/gate"
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

// Delta is one compared figure. ID is its stable machine id
// ("exposed_tp_ns", "stage[2].bubble_fraction"; see gate.Metrics), Name
// its display name. Regressed is set when a gated figure moved the wrong
// way by more than the threshold, the noise floor and the steps' spread;
// Improved is the mirror image and never fails the gate. A fraction is
// gated only when its time cost grew too, or when a --gate names it.
// Rank deltas have Unit "named" and values 0 (not named) or 1 (named);
// finding deltas have the finding's cost per step, 0 in the run without it.
type Delta struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Kind      string  `json:"kind"` // DeltaFigure, DeltaRank, DeltaFinding
	Base      float64 `json:"base"`
	New       float64 `json:"new"`
	Unit      string  `json:"unit"` // "ns", "fraction", "bytes", "tokens/s" or "named"
	Regressed bool    `json:"regressed"`
	Improved  bool    `json:"improved"`
	// HigherBetter marks figures (tokens/s, MFU) that regress when they fall.
	HigherBetter bool `json:"higher_is_better,omitempty"`
	// Gated is false for a figure shown but not judged (a fraction whose
	// time cost did not grow).
	Gated bool `json:"gated"`
	// Spread is the larger of the two runs' step-to-step standard
	// deviations of the figure, in Unit, when the Result has it per step
	// (the step, each stage's bubble, the slowest stage's compute): a
	// regression must exceed it.
	Spread float64 `json:"spread,omitempty"`
	// Threshold is the rule the figure was judged by: "5.0 %", "2.00 ms", "1.0 pp".
	Threshold string `json:"threshold,omitempty"`
	// credit (≤ 0) is added to New when judging: for a stage's bubble, the
	// fall of the stage's other time (compute, exposed non-PP
	// communication), which a bubble fills when the step stays.
	credit float64
}

// Change is (New−Base)/Base, 0 when both are 0, and ±1 when Base is 0.
func (d Delta) Change() float64 {
	return gate.Figure{Base: d.Base, New: d.New}.Change()
}

// ChangePP is New−Base in percentage points, for fractions.
func (d Delta) ChangePP() float64 { return 100 * (d.New - d.Base) }

func (d Delta) figure(floor, spread float64) gate.Figure {
	return gate.Figure{Unit: d.Unit, Base: d.Base, New: d.New + d.credit, HigherBetter: d.HigherBetter, Floor: floor, Spread: spread}
}

// Options are a comparison's gates: the default relative threshold and
// the --gate selectors, which gate figures not gated by default (the
// fractions) and may give their own threshold.
type Options struct {
	Threshold float64
	Gates     []gate.Selector
}

// judge holds what the deltas of one comparison are judged by: the
// options and the floor of times (0.5 % of the base step).
type judge struct {
	opt   Options
	floor float64
}

func newJudge(base *result.Result, opt Options) judge {
	return judge{opt: opt, floor: 0.005 * float64(base.StepNs)}
}

// fractionFloor is the floor of fractions: half a percentage point.
const fractionFloor = 0.005

// bytesFloor is the floor of memory figures: 1 MiB.
const bytesFloor = 1 << 20

// floorOf is the least move of d that can count.
func (j judge) floorOf(d Delta) float64 {
	switch d.Unit {
	case gate.UnitFraction:
		return fractionFloor
	case gate.UnitBytes:
		return bytesFloor
	case gate.UnitTokens:
		return 0.005 * d.Base
	}
	return j.floor
}

// rule is the threshold for the figure id of metric key, and whether a
// --gate names it.
func (j judge) rule(key, id string) (gate.Rule, bool) {
	r, named := gate.Rule{Rel: j.opt.Threshold}, false
	for _, s := range j.opt.Gates {
		if s.Selects(key, id) {
			named = true
			if s.HasRule {
				r = s.Rule
			}
		}
	}
	return r, named
}

// judge sets d's Regressed, Improved, Gated and Threshold; key is d's
// metric, gated whether it is judged without being named.
func (j judge) judge(key string, d Delta, gated bool) Delta {
	r, named := j.rule(key, d.ID)
	d.Gated, d.Threshold = gated || named, r.Text(d.Unit)
	reg, imp := r.Judge(d.figure(j.floorOf(d), d.Spread))
	d.Regressed, d.Improved = reg && d.Gated, imp
	return d
}

// Compare compares at a relative threshold (0.05 = 5 %) with the default gates.
func Compare(base, cur *result.Result, threshold float64) []Delta {
	return CompareWith(base, cur, Options{Threshold: threshold})
}

// CompareWith lines up the figures the seed's performance gate keeps
// (§6.9), in gate.Metrics order: step time, the step period (when both
// runs have it), tokens/s and MFU (when both
// runs have them; they regress when they fall), each stage's bubble time
// and fraction, exposed time per axis (for PP, the transfer: what the
// exposed-PP finding counts), the exposed wait for late or slow members
// per axis (not PP: that wait is the bubble), the slowest stage's compute,
// each stage's peak GPU memory (when either run has memory events), the
// ranks named slow or late in either run (a rank newly named is a
// regression), and the findings present in one run only. A figure
// regresses when it grows by more than the threshold, by more than its
// floor (times: 0.5 % of the base step; fractions: half a percentage
// point; tokens/s: 0.5 % of the base; memory: 1 MiB) and by more than the
// steps' spread. A stage's bubble time is judged net of the fall of the
// stage's own work, and its fraction only when that net bubble time grew
// past its floor too, or when a --gate names it: a shorter step alone
// makes a fraction grow.
func CompareWith(base, cur *result.Result, opt Options) []Delta {
	j := newJudge(base, opt)
	fig := func(key, id, name, unit string, b, n, spread float64) Delta {
		return j.judge(key, Delta{ID: id, Name: name, Kind: DeltaFigure, Base: b, New: n, Unit: unit, Spread: spread}, true)
	}
	ds := []Delta{fig("step", "step_ns", "step", gate.UnitNs, float64(base.StepNs), float64(cur.StepNs), stepSpread(base, cur))}
	if base.PeriodNs > 0 && cur.PeriodNs > 0 {
		ds = append(ds, fig("period", "period_ns", "step period", gate.UnitNs, float64(base.PeriodNs), float64(cur.PeriodNs), periodSpread(base, cur)))
	}
	ds = append(ds, throughputDeltas(base, cur, j)...)
	ds = append(ds, bubbleDeltas(base, cur, j)...)
	for _, ax := range comparedAxes(base, cur, "TP", "PP", "DP") {
		ds = append(ds, fig("exposed", "exposed_"+strings.ToLower(ax)+"_ns", "exposed "+ax, gate.UnitNs, meanExposed(base, ax), meanExposed(cur, ax), 0))
	}
	for _, ax := range comparedAxes(base, cur, "TP", "DP") {
		ds = append(ds, fig("exposed_wait", "exposed_wait_"+strings.ToLower(ax)+"_ns", "exposed wait "+ax, gate.UnitNs,
			meanOf(base, ax, exposedWait), meanOf(cur, ax, exposedWait), 0))
	}
	names := deltaNames(base, cur)
	ds = append(ds, fig("compute", "slowest_stage_compute_ns", names.compute, gate.UnitNs, slowest(base), slowest(cur), computeSpread(base, cur)))
	for i := 0; i < max(len(base.Stages), len(cur.Stages)); i++ {
		if b, n := stagePeak(base, i), stagePeak(cur, i); b > 0 || n > 0 {
			ds = append(ds, fig("peak_memory", fmt.Sprintf("stage[%d].peak_mem_bytes", i), names.peak(i), gate.UnitBytes, b, n, 0))
		}
	}
	ds = append(ds, rankDeltas(base, cur)...)
	return append(ds, findingDeltas(base, cur, j)...)
}

// bubbleDeltas are each stage's bubble time per step and its fraction.
// A bubble fills what the stage's own work leaves of the step: when the
// stage computes less (or waits less in TP, DP, ... collectives) the
// bubble grows by as much without the step getting longer. So the bubble
// time is judged net of that fall, and the fraction is gated only when
// the net bubble time grew past its floor (or a --gate names it).
func bubbleDeltas(base, cur *result.Result, j judge) []Delta {
	names := deltaNames(base, cur)
	var ds []Delta
	for i := 0; i < max(len(base.Stages), len(cur.Stages)); i++ {
		t := j.judge("bubble", Delta{ID: fmt.Sprintf("stage[%d].bubble_ns", i), Name: names.bubble(i), Kind: DeltaFigure,
			Base: stageBubbleNs(base, i), New: stageBubbleNs(cur, i), Unit: gate.UnitNs, Spread: bubbleSpread(base, cur, i),
			credit: min(0, stageWork(cur, i)-stageWork(base, i))}, true)
		f := j.judge("bubble_fraction", Delta{ID: fmt.Sprintf("stage[%d].bubble_fraction", i), Name: names.bubble(i) + " fraction",
			Kind: DeltaFigure, Base: stageBubble(base, i), New: stageBubble(cur, i), Unit: gate.UnitFraction}, t.New+t.credit-t.Base > j.floor)
		ds = append(ds, t, f)
	}
	return ds
}

// stageWork is stage i's time per step other than its bubble: compute
// and exposed communication off the pipeline axis (exposed PP is in the
// bubble). 0 when the run has no such stage.
func stageWork(r *result.Result, i int) float64 {
	if i >= len(r.Stages) {
		return 0
	}
	w := r.Stages[i].ComputeNs
	for ax, ns := range r.Stages[i].ExposedNs {
		if ax != "PP" {
			w += ns
		}
	}
	return float64(w)
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

func stageBubbleNs(r *result.Result, i int) float64 {
	if i < len(r.Stages) {
		return float64(r.Stages[i].BubbleNs)
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
func throughputDeltas(base, cur *result.Result, j judge) []Delta {
	var ds []Delta
	for _, f := range []struct {
		key, name, unit string
		b, n            float64
	}{{"tokens_per_s", "tokens/s", gate.UnitTokens, base.TokensPerS, cur.TokensPerS}, {"mfu", "MFU", gate.UnitFraction, base.MFU, cur.MFU}} {
		if f.b > 0 && f.n > 0 {
			ds = append(ds, j.judge(f.key, Delta{ID: f.key, Name: f.name, Kind: DeltaFigure, Base: f.b, New: f.n, Unit: f.unit, HigherBetter: true}, true))
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
