package layout

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// attributePeerless gives p2p kernels with neither a peer nor a usable
// communicator (batched send/recv often carry no metadata) a PP
// communicator. Along each pipeline, stage 0's kernels all serve stage 1;
// stage 1's kernels that end together with them (at one constant clock
// offset, found by voting) serve stage 0 and the rest serve stage 2; and so
// on down the pipeline (see chain). When a stage's kernels do not pair up,
// the rest of that pipeline's kernels go to its whole PP group.
func attributePeerless(t *model.Trace, l Layout) {
	if l.PP <= 1 {
		return
	}
	o, _ := parseOrder(l.Order)
	peerless := map[int32][]int{}
	ev := &t.Events
	for i := ev.NextKind(model.KindComm, 0, ev.Len()); i < ev.Len(); i = ev.NextKind(model.KindComm, i+1, ev.Len()) {
		if c := ev.Coll[i]; isP2P(t, i) && reassignable(t, t.Colls.Comm[c]) {
			peerless[ev.Rank[i]] = append(peerless[ev.Rank[i]], i)
		}
	}
	if len(peerless) == 0 {
		return
	}
	uses := collUses(t)
	world := worldSize(t)
	for _, r := range t.Ranks {
		if coordOf(r.Rank, l, o).PP == 0 {
			if stages := pipelineOf(r.Rank, l, o); stages[len(stages)-1] < int32(world) {
				chain(t, stages, peerless, uses)
			}
		}
	}
}

// chain peels one pipeline's peerless kernels stage by stage. Stage 0's
// kernels that end with none of stage 1's serve the ring link back from the
// last stage (an interleaved pipeline sends a model chunk's output from
// stage p−1 to stage 0): they are paired with the last stage's leftovers.
func chain(t *model.Trace, stages []int32, peerless map[int32][]int, uses []int32) {
	rest := peerless[stages[0]]
	var ring []int
	for s := 0; s+1 < len(stages); s++ {
		a, b := stages[s], stages[s+1]
		if rest == nil && s > 0 {
			setComm(t, peerless[b], groupComm(t, stages), uses)
			continue
		}
		matched, others := matchEnds(t, rest, peerless[b])
		if len(rest) > 0 && 2*len(matched) < len(rest) {
			setComm(t, rest, groupComm(t, stages), uses)
			setComm(t, peerless[b], groupComm(t, stages), uses)
			rest = nil
			continue
		}
		if s == 0 && len(stages) > 2 {
			rest, ring = matchEnds(t, matched, rest)
		}
		link := linkComm(t, a, b)
		setComm(t, rest, link, uses)
		setComm(t, matched, link, uses)
		rest = others
	}
	closeRing(t, stages, rest, ring, uses)
}

// closeRing gives the last stage's leftover kernels and stage 0's ring
// kernels that end together the ring link; the rest of the last stage's go
// to its link with the stage before it, the rest of stage 0's to its link
// with stage 1.
func closeRing(t *model.Trace, stages []int32, rest, ring []int, uses []int32) {
	n := len(stages)
	if n < 2 || rest == nil && ring == nil {
		return
	}
	matched, others := matchEnds(t, ring, rest)
	if len(ring) > 0 && 2*len(matched) >= len(ring) {
		setComm(t, ring, linkComm(t, stages[0], stages[n-1]), uses)
		setComm(t, matched, linkComm(t, stages[0], stages[n-1]), uses)
		rest, ring = others, nil
	}
	setComm(t, ring, linkComm(t, stages[0], stages[1]), uses)
	setComm(t, rest, linkComm(t, stages[n-2], stages[n-1]), uses)
}

func linkComm(t *model.Trace, a, b int32) int32 {
	a, b = min(a, b), max(a, b)
	return t.AddComm(model.Communicator{ID: fmt.Sprintf("p2p:%d-%d", a, b), Members: []int32{a, b}, Axis: model.AxisPP, AxisBy: model.AxisByTraffic})
}

// groupComm is the pipeline's PP group: an existing one with these members,
// else a new "pp-group:[...]".
func groupComm(t *model.Trace, stages []int32) int32 {
	members := slices.Sorted(slices.Values(stages))
	if i := slices.IndexFunc(t.Comms, func(c model.Communicator) bool {
		return c.Axis == model.AxisPP && slices.Equal(c.Members, members)
	}); i >= 0 {
		return int32(i)
	}
	return t.AddComm(model.Communicator{ID: fmt.Sprintf("pp-group:%v", members), Members: members, Axis: model.AxisPP, AxisBy: model.AxisByTraffic})
}

// collUses counts the events that point at each collective row.
func collUses(t *model.Trace) []int32 {
	n := make([]int32, t.Colls.Len())
	for _, c := range t.Events.Coll {
		if c >= 0 && int(c) < len(n) {
			n[c]++
		}
	}
	return n
}

// setComm points events' collectives at comm, copying a row that other
// events share so that they keep theirs.
func setComm(t *model.Trace, events []int, comm int32, uses []int32) {
	for _, i := range events {
		c := t.Events.Coll[i]
		if uses[c] > 1 {
			uses[c]--
			c = t.Colls.Append(t.Colls.At(int(c)))
			t.Events.Coll[i] = c
		}
		t.Colls.Comm[c] = comm
	}
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
// is WORLD. An A2A group is relabelled only as EP.
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
		case c.Axis == model.AxisA2A && a != model.AxisEP: // an embedding all-to-all stays one, unless the flags' EP groups say otherwise
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
