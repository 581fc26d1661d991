package layout

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/ingest/model"
)

// attributePeerless gives p2p kernels with neither a peer nor a usable
// communicator (batched send/recv often carry no metadata) a PP
// communicator: the link to the rank's only pipeline neighbour when it has
// one (first and last stages, or PP = 2), else the rank's whole pipeline
// group, since the kernel alone does not say which neighbour it served.
func attributePeerless(t *model.Trace, l Layout) {
	if l.PP <= 1 {
		return
	}
	o, _ := parseOrder(l.Order)
	ev := &t.Events
	memo := map[int32]int32{}
	for i := 0; i < ev.Len(); i++ {
		c := ev.Coll[i]
		if !isP2P(t, i) || !reassignable(t, t.Colls.Comm[c]) {
			continue
		}
		r := ev.Rank[i]
		comm, ok := memo[r]
		if !ok {
			comm = pipelineComm(t, r, l, o)
			memo[r] = comm
		}
		t.Colls.Comm[c] = comm
	}
}

func pipelineComm(t *model.Trace, r int32, l Layout, o order) int32 {
	stages := pipelineOf(r, l, o)
	var near []int32
	for k, s := range stages {
		if s == r {
			if k > 0 {
				near = append(near, stages[k-1])
			}
			if k+1 < len(stages) {
				near = append(near, stages[k+1])
			}
		}
	}
	pp := model.Communicator{Members: stages, Axis: model.AxisPP, AxisBy: model.AxisByTraffic}
	pp.ID = fmt.Sprintf("pp-group:%v", stages)
	if len(near) == 1 {
		pp.Members = []int32{min(r, near[0]), max(r, near[0])}
		pp.ID = fmt.Sprintf("p2p:%d-%d", pp.Members[0], pp.Members[1])
	}
	if i := slices.IndexFunc(t.Comms, func(c model.Communicator) bool {
		return c.Axis == model.AxisPP && slices.Equal(c.Members, pp.Members)
	}); i >= 0 {
		return int32(i)
	}
	return t.AddComm(pp)
}

// pipelineOf lists the ranks of r's pipeline, stage 0 first.
func pipelineOf(r int32, l Layout, o order) []int32 {
	c := coordOf(r, l, o)
	out := make([]int32, 0, l.PP)
	for s := int32(0); s < int32(l.PP); s++ {
		c.PP = s
		out = append(out, rankOf(c, l, o))
	}
	return out
}

// labelByLayout labels communicators whose members form one group of an
// axis under the decided layout: overriding other evidence when the layout
// comes from flags, else only those still unknown. A group of every rank
// is WORLD.
func labelByLayout(t *model.Trace, l Layout, flags bool) {
	o, _ := parseOrder(l.Order)
	world := worldSize(t)
	for i := range t.Comms {
		c := &t.Comms[i]
		if !flags && c.Axis != model.AxisUnknown || len(c.Members) < 2 {
			continue
		}
		a := groupAxis(c.Members, l, o)
		by := model.AxisByMembers
		if flags {
			by = model.AxisByFlag
		}
		switch {
		case a != model.AxisUnknown:
			c.Axis, c.AxisBy = a, by
		case len(c.Members) == world && c.Axis == model.AxisUnknown:
			c.Axis, c.AxisBy = model.AxisWorld, model.AxisByMembers
		}
	}
}

// groupAxis returns the axis along which members differ (and only it) when
// they form that axis's whole group, or a pipeline link of neighbours.
func groupAxis(members []int32, l Layout, o order) model.Axis {
	cs := make([]model.Coord, len(members))
	for i, m := range members {
		cs[i] = coordOf(m, l, o)
	}
	for _, a := range parallelAxes {
		if !differOnlyIn(cs, a) {
			continue
		}
		if len(members) == l.size(a) || a == model.AxisPP && len(members) == 2 && abs(cs[1].PP-cs[0].PP) == 1 {
			return a
		}
	}
	return model.AxisUnknown
}

func differOnlyIn(cs []model.Coord, a model.Axis) bool {
	seen := map[int32]bool{}
	for _, c := range cs {
		v := coord(c, a)
		if seen[v] {
			return false
		}
		seen[v] = true
		setCoord(&c, a, 0)
		x := cs[0]
		setCoord(&x, a, 0)
		if c != x {
			return false
		}
	}
	return !slices.Contains([]int{0, 1}, len(seen))
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
