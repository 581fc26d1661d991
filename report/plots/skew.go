package plots

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/palette"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// ArrivalSkew draws, for the first slow rank, how long each member of its
// collective groups waits for the last member to arrive, per axis. Peers
// of a straggler wait long; the straggler itself hardly waits.
func ArrivalSkew(r *result.Result) (Figure, bool) {
	if len(r.SlowRanks) == 0 {
		return Figure{}, false
	}
	slow := r.SlowRanks[0].Rank
	members, axes := groupOf(r, slow)
	if len(members) < 2 || len(axes) == 0 {
		return Figure{}, false
	}
	p := newPlot(fmt.Sprintf("Arrival skew around slow rank %d", slow), "rank", "wait for the last member (ms per step)")
	l := plot.NewLegend()
	w := barWidth(len(members) * len(axes))
	for i, axis := range axes {
		b, err := plotter.NewBarChart(waits(r, members, axis), w)
		if err != nil {
			continue
		}
		b.Color, b.LineStyle.Width = palette.Color(vocab.ExposedCategory(axis)), 0
		b.Offset = w * vg.Length(2*i-len(axes)+1) / 2
		p.Add(b)
		l.Add(axis+" wait", b)
	}
	p.NominalX(rankNames(members, slow)...)
	return Figure{
		Name: "skew", Title: "Arrival skew in the slow rank's groups",
		Caption: fmt.Sprintf("Time each member of rank %d's collective groups waits, per step, for the group's last member. "+
			"The slow rank arrives last, so it waits least while its peers wait for it.", slow),
		Width: 18 * vg.Centimeter, Height: 10 * vg.Centimeter, draw: withLegendRight(p, l, 3*vg.Centimeter),
	}, true
}

// groupOf returns the members of every non-pipeline communicator holding
// rank, sorted, and the axes those communicators serve. Without
// communicators it falls back to the rank's stage.
func groupOf(r *result.Result, rank int) (members []int, axes []string) {
	for _, c := range r.Comms {
		if c.Axis != "PP" && slices.Contains(c.Members, rank) {
			members = append(members, c.Members...)
			axes = append(axes, c.Axis)
		}
	}
	if len(members) == 0 {
		for _, s := range r.Stages {
			if slices.Contains(s.Ranks, rank) {
				members = append(members, s.Ranks...)
			}
		}
		axes = waitAxes(r)
	}
	slices.Sort(members)
	slices.Sort(axes)
	return slices.Compact(members), slices.Compact(axes)
}

func waitAxes(r *result.Result) []string {
	var axes []string
	for _, rs := range r.Ranks {
		for a := range rs.WaitNs {
			axes = append(axes, a)
		}
	}
	return axes
}

func waits(r *result.Result, members []int, axis string) plotter.Values {
	vals := make(plotter.Values, len(members))
	for i, m := range members {
		if j := slices.IndexFunc(r.Ranks, func(x result.RankStats) bool { return x.Rank == m }); j >= 0 {
			vals[i] = float64(r.Ranks[j].WaitNs[axis]) / 1e6
		}
	}
	return vals
}

func rankNames(members []int, slow int) []string {
	out := make([]string, len(members))
	for i, m := range members {
		out[i] = fmt.Sprint(m)
		if m == slow {
			out[i] += " (slow)"
		}
	}
	return out
}
