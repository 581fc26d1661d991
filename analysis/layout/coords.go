package layout

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// orderOf decides the rank order: the given one when fixed (flags), else
// Megatron's when the labelled groups agree with it, else the order of the
// groups' strides when they agree with that. Otherwise it keeps Megatron's
// and reports the ranks whose place in their groups breaks it.
func orderOf(t *model.Trace, l Layout, given order, fixed bool) (string, []Problem) {
	if fixed {
		return given.String(), nil
	}
	groups := axisGroups(t)
	bad := misplaced(l, given, groups)
	if len(bad) == 0 {
		return given.String(), nil
	}
	if o := strideOrder(l, groups); len(misplaced(l, o, groups)) == 0 {
		return o.String(), nil
	}
	return given.String(), []Problem{{Kind: "order_mismatch", Ranks: bad,
		Says: result.Say(vocab.SayOrder, result.Count("misplaced", int64(len(bad)))).Quoting("order", given.String())}}
}

// misplaced lists the ranks whose index in a group of some axis differs
// from their coordinate on that axis under order o.
func misplaced(l Layout, o order, groups map[model.Axis][][]int32) []int32 {
	bad := map[int32]bool{}
	for a, gs := range groups {
		if l.size(a) <= 1 {
			continue
		}
		for _, g := range gs {
			for k, r := range g {
				if coord(coordOf(r, l, o), a) != int32(k) {
					bad[r] = true
				}
			}
		}
	}
	out := make([]int32, 0, len(bad))
	for r := range bad {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// strideOrder sorts the axes that have groups by the rank distance between
// a group's first two members; the others follow in Megatron's order.
func strideOrder(l Layout, groups map[model.Axis][][]int32) order {
	type axisStride struct {
		a      model.Axis
		stride int32
	}
	var s []axisStride
	for a, gs := range groups {
		if l.size(a) > 1 && len(gs) > 0 && len(gs[0]) > 1 {
			s = append(s, axisStride{a, gs[0][1] - gs[0][0]})
		}
	}
	slices.SortFunc(s, func(x, y axisStride) int { return cmp.Compare(x.stride, y.stride) })
	var o order
	for _, x := range s {
		o = append(o, x.a)
	}
	for _, a := range megatronOrder {
		if !slices.Contains(o, a) {
			o = append(o, a)
		}
	}
	return o
}

// assignCoords sets every rank's coordinates from the layout and its order.
func assignCoords(t *model.Trace, l Layout) {
	o, _ := parseOrder(l.Order)
	for i := range t.Ranks {
		t.Ranks[i].Coord = coordOf(t.Ranks[i].Rank, l, o)
	}
}
