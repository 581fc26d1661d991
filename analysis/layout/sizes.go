package layout

import (
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// parallelAxes are the axes a layout has sizes for.
var parallelAxes = []model.Axis{model.AxisTP, model.AxisCP, model.AxisEP, model.AxisDP, model.AxisPP}

// decideSizes takes the flags' sizes, then the modal size of each axis's
// labelled groups; TP, CP and EP default to 1; the rest of the world goes
// to DP when DP is unknown, else to PP (pipeline groups often run no
// collective and so show no communicator).
func decideSizes(t *model.Trace, f Flags, world int) Layout {
	l := Layout{TP: f.TP, PP: f.PP, DP: f.DP, CP: f.CP, EP: f.EP}
	groups := axisGroups(t)
	for _, a := range parallelAxes {
		if l.size(a) == 0 && len(groups[a]) > 0 {
			l.set(a, modalSize(groups[a]))
		}
	}
	for _, a := range []model.Axis{model.AxisTP, model.AxisCP, model.AxisEP} {
		if l.size(a) == 0 {
			l.set(a, 1)
		}
	}
	rest := func() int { return max(1, world/(l.TP*l.CP*l.EP*max(l.DP, 1)*max(l.PP, 1))) }
	switch {
	case l.DP == 0 && l.PP == 0:
		l.PP = 1
		l.DP = rest()
	case l.DP == 0:
		l.DP = rest()
	case l.PP == 0:
		l.PP = rest()
	}
	return l
}

// axisGroups returns each axis's groups: the member sets of its
// communicators (for DP, the plain data-parallel ones when both plain and
// "_WITH_CP" groups exist), and for PP the connected components of its
// communicators, which may be 2-member send/recv links.
func axisGroups(t *model.Trace) map[model.Axis][][]int32 {
	out := map[model.Axis][][]int32{}
	var withCP [][]int32
	for _, c := range t.Comms {
		switch {
		case c.Axis == model.AxisPP || len(c.Members) == 0:
		case c.Axis == model.AxisDP && strings.Contains(strings.ToUpper(c.Desc), "WITH_CP"):
			withCP = append(withCP, c.Members)
		case slices.Contains(parallelAxes, c.Axis):
			out[c.Axis] = append(out[c.Axis], c.Members)
		}
	}
	if len(out[model.AxisDP]) == 0 && len(withCP) > 0 {
		out[model.AxisDP] = withCP
	}
	if pp := components(t, model.AxisPP); len(pp) > 0 {
		out[model.AxisPP] = pp
	}
	return out
}

// components unions the member sets of axis a's communicators.
func components(t *model.Trace, a model.Axis) [][]int32 {
	u := unionFind{}
	for _, c := range t.Comms {
		if c.Axis != a {
			continue
		}
		for _, m := range c.Members {
			u[u.find(m)] = u.find(c.Members[0])
		}
	}
	byRoot := map[int32][]int32{}
	for x := range u {
		byRoot[u.find(x)] = append(byRoot[u.find(x)], x)
	}
	var out [][]int32
	for _, g := range byRoot {
		slices.Sort(g)
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b []int32) int { return int(a[0] - b[0]) })
	return out
}

// unionFind maps a rank to its parent; a root is its own parent.
type unionFind map[int32]int32

func (u unionFind) find(x int32) int32 {
	p, ok := u[x]
	if !ok || p == x {
		u[x] = x
		return x
	}
	u[x] = u.find(p)
	return u[x]
}

// modalSize is the most common group size (the smaller on a tie).
func modalSize(groups [][]int32) int {
	count := map[int]int{}
	best := 0
	for _, g := range groups {
		count[len(g)]++
	}
	for n, c := range count {
		if c > count[best] || c == count[best] && n < best {
			best = n
		}
	}
	return best
}
