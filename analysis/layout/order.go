package layout

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// order lists the axes from fastest-varying to slowest.
type order []model.Axis

// megatronOrder is Megatron's default "tp-cp-ep-dp-pp".
var megatronOrder = order{model.AxisTP, model.AxisCP, model.AxisEP, model.AxisDP, model.AxisPP}

// parseOrder reads "tp-cp-ep-dp-pp" (any case, "-" or "," separated); axes
// it omits follow in Megatron's order. "" is Megatron's order.
func parseOrder(s string) (order, error) {
	var o order
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == ',' || r == ' ' }) {
		a := model.ParseAxis(strings.ToUpper(tok))
		if !slices.Contains(megatronOrder, a) {
			return nil, fmt.Errorf("order %q: unknown axis %q (want tp, cp, ep, dp, pp)", s, tok)
		}
		if slices.Contains(o, a) {
			return nil, fmt.Errorf("order %q: axis %q given twice", s, tok)
		}
		o = append(o, a)
	}
	for _, a := range megatronOrder {
		if !slices.Contains(o, a) {
			o = append(o, a)
		}
	}
	return o, nil
}

func (o order) String() string {
	parts := make([]string, len(o))
	for i, a := range o {
		parts[i] = strings.ToLower(a.String())
	}
	return strings.Join(parts, "-")
}

// coordOf is rank r's coordinates under layout l and order o.
func coordOf(r int32, l Layout, o order) model.Coord {
	var c model.Coord
	x := r
	for _, a := range o {
		n := int32(max(l.size(a), 1))
		setCoord(&c, a, x%n)
		x /= n
	}
	return c
}

// rankOf is the inverse of coordOf.
func rankOf(c model.Coord, l Layout, o order) int32 {
	var r, mul int32 = 0, 1
	for _, a := range o {
		r += coord(c, a) * mul
		mul *= int32(max(l.size(a), 1))
	}
	return r
}

func coord(c model.Coord, a model.Axis) int32 {
	if p := coordField(&c, a); p != nil {
		return *p
	}
	return 0
}

func setCoord(c *model.Coord, a model.Axis, v int32) {
	if p := coordField(c, a); p != nil {
		*p = v
	}
}

func coordField(c *model.Coord, a model.Axis) *int32 {
	return axisField(a, &c.TP, &c.PP, &c.DP, &c.CP, &c.EP)
}
