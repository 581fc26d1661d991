package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/units"
)

// Delta is one compared figure. Regressed is set when New exceeds Base by
// more than the threshold (relative) and by more than the noise floor.
type Delta struct {
	Name      string
	Base, New float64
	Unit      string // "ns" or "fraction"
	Regressed bool
}

// Change is (New−Base)/Base, or 0 when Base is 0 and New too.
func (d Delta) Change() float64 {
	if d.Base == 0 {
		if d.New == 0 {
			return 0
		}
		return 1
	}
	return (d.New - d.Base) / d.Base
}

// Compare lines up the figures the seed's performance gate keeps (§6.9):
// step time, each stage's bubble, exposed time per axis (for PP, the
// transfer: what the exposed-PP finding counts) and the slowest
// stage's compute. A figure regresses when it grows by more than
// threshold (0.05 = 5 %) and, for times, by more than 0.5 % of the base
// step (so that tiny figures do not flap).
func Compare(base, cur *result.Result, threshold float64) []Delta {
	floor := 0.005 * float64(base.StepNs)
	var ds []Delta
	add := func(name, unit string, b, n float64) {
		d := Delta{Name: name, Base: b, New: n, Unit: unit}
		d.Regressed = d.Change() > threshold && (unit != "ns" || n-b > floor)
		ds = append(ds, d)
	}
	add("step", "ns", float64(base.StepNs), float64(cur.StepNs))
	for i := 0; i < max(len(base.Stages), len(cur.Stages)); i++ {
		add(fmt.Sprintf("stage %d bubble", i), "fraction", stageBubble(base, i), stageBubble(cur, i))
	}
	for _, ax := range []string{"TP", "PP", "DP"} {
		add("exposed "+ax, "ns", meanExposed(base, ax), meanExposed(cur, ax))
	}
	add("slowest stage compute", "ns", slowest(base), slowest(cur))
	return ds
}

func stageBubble(r *result.Result, i int) float64 {
	if i < len(r.Stages) {
		return r.Stages[i].BubbleFraction
	}
	return 0
}

func meanExposed(r *result.Result, ax string) float64 {
	if len(r.Ranks) == 0 {
		return 0
	}
	var s int64
	for _, rk := range r.Ranks {
		s += exposedOf(rk, ax)
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

func slowest(r *result.Result) float64 {
	var m int64
	for _, s := range r.Stages {
		m = max(m, s.ComputeNs)
	}
	return float64(m)
}

// CompareText writes the deltas as a table and returns how many regressed.
func CompareText(w io.Writer, ds []Delta) int {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tbase\tnew\tchange\t")
	n := 0
	for _, d := range ds {
		mark := ""
		if d.Regressed {
			mark, n = "REGRESSION", n+1
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%+.1f %%\t%s\n", d.Name, format(d.Base, d.Unit), format(d.New, d.Unit), 100*d.Change(), mark)
	}
	tw.Flush()
	return n
}

func format(v float64, unit string) string {
	if unit == "fraction" {
		return units.Percent(v)
	}
	return units.Duration(int64(v))
}
