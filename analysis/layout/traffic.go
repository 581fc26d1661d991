package layout

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/steps"
	"github.com/tpptrace/tpptrace/model"
)

// linkPeers gives p2p kernels with a known peer but no usable communicator
// (none, an unlabelled one with more than two members, or the world group)
// a 2-member communicator "p2p:a-b"; traffic labelling then calls it PP.
func linkPeers(t *model.Trace) {
	ev := &t.Events
	for i := ev.NextKind(model.KindComm, 0, ev.Len()); i < ev.Len(); i = ev.NextKind(model.KindComm, i+1, ev.Len()) {
		c := ev.Coll[i]
		if !isP2P(t, i) || t.Colls.Peer[c] < 0 || t.Colls.Peer[c] == ev.Rank[i] || !reassignable(t, t.Colls.Comm[c]) {
			continue
		}
		a, b := min(ev.Rank[i], t.Colls.Peer[c]), max(ev.Rank[i], t.Colls.Peer[c])
		t.Colls.Comm[c] = t.AddComm(model.Communicator{ID: fmt.Sprintf("p2p:%d-%d", a, b), Members: []int32{a, b}})
	}
}

func isP2P(t *model.Trace, i int) bool {
	c := t.Events.Coll[i]
	return t.Events.Kind[i] == model.KindComm && c >= 0 && int(c) < t.Colls.Len() && t.Colls.Op[c].PointToPoint()
}

func reassignable(t *model.Trace, comm int32) bool {
	if comm < 0 || int(comm) >= len(t.Comms) {
		return true
	}
	c := t.Comms[comm]
	return c.Axis == model.AxisWorld || c.Axis == model.AxisUnknown && len(c.Members) != 2
}

func membersKey(m []int32) string { return fmt.Sprint(m) }

// labelByMembers labels an unknown communicator whose member set equals a
// labelled one's.
func labelByMembers(t *model.Trace) {
	known := map[string]model.Axis{}
	for _, c := range t.Comms {
		if c.Axis != model.AxisUnknown && len(c.Members) > 0 {
			known[membersKey(c.Members)] = c.Axis
		}
	}
	for i := range t.Comms {
		c := &t.Comms[i]
		if a, ok := known[membersKey(c.Members)]; ok && c.Axis == model.AxisUnknown {
			c.Axis, c.AxisBy = a, model.AxisByMembers
		}
	}
}

// commStats counts one communicator's kernels.
type commStats struct {
	kernels, p2p, allToAll, allGather int
}

func countTraffic(t *model.Trace) []commStats {
	st := make([]commStats, len(t.Comms))
	ev := &t.Events
	for i := ev.NextKind(model.KindComm, 0, ev.Len()); i < ev.Len(); i = ev.NextKind(model.KindComm, i+1, ev.Len()) {
		c := ev.Coll[i]
		if c < 0 || int(c) >= t.Colls.Len() || t.Colls.Comm[c] < 0 || int(t.Colls.Comm[c]) >= len(st) {
			continue
		}
		s := &st[t.Colls.Comm[c]]
		s.kernels++
		switch op := t.Colls.Op[c]; {
		case op.PointToPoint():
			s.p2p++
		case op == model.OpAllToAll:
			s.allToAll++
		case op == model.OpAllGather:
			s.allGather++
		}
	}
	return st
}

// labelByTraffic labels the communicators still unknown: p2p-only pairs are
// PP; a group of every rank is WORLD when smaller groups exist, else DP;
// groups mostly running all-to-all are EP when it is per-layer traffic,
// else A2A (alltoall.go); the rest, grouped by size and
// stride (the groups of one axis share both), take TP, CP, DP in order of decreasing kernels per member and step.
func labelByTraffic(t *model.Trace) {
	st := countTraffic(t)
	world := worldSize(t)
	smaller := hasSmallerGroups(t, st, world)
	classes := map[[2]int32][]int{} // (member count, stride) → unknown communicators
	var silent []int                // unknown groups that ran nothing
	epFree := !axisUsed(t, model.AxisEP)
	steps := stepCount(t, nil) // step ranges, else 1: the traffic classes are not known yet
	for i := range t.Comms {
		c := &t.Comms[i]
		if c.Axis != model.AxisUnknown || len(c.Members) < 2 {
			continue
		}
		switch s := st[i]; {
		case s.kernels > 0 && s.p2p == s.kernels && len(c.Members) == 2:
			c.Axis, c.AxisBy = model.AxisPP, model.AxisByTraffic
		case len(c.Members) == world:
			c.Axis, c.AxisBy = worldOrDP(smaller), model.AxisByTraffic
		case s.kernels > 0 && 2*s.allToAll > s.kernels && allToAllAxis(s, len(c.Members), steps, epFree) != model.AxisUnknown:
			c.Axis, c.AxisBy = allToAllAxis(s, len(c.Members), steps, epFree), model.AxisByTraffic
		case s.kernels > 0:
			k := [2]int32{int32(len(c.Members)), c.Members[1] - c.Members[0]}
			classes[k] = append(classes[k], i)
		case len(c.Members) < world:
			silent = append(silent, i)
		}
	}
	labelClasses(t, st, classes)
	labelSilent(t, silent)
}

// labelSilent labels groups that ran no collective at all as PP when the
// job has p2p kernels and no PP group yet: Megatron's pipeline groups carry
// only send/recv, which batched p2p records without a communicator, while
// TP and DP groups always run collectives.
func labelSilent(t *model.Trace, silent []int) {
	if len(silent) == 0 || axisUsed(t, model.AxisPP) || !slices.ContainsFunc(t.Colls.Op, model.Op.PointToPoint) {
		return
	}
	for _, i := range silent {
		t.Comms[i].Axis, t.Comms[i].AxisBy = model.AxisPP, model.AxisByTraffic
	}
}

// hasSmallerGroups reports whether some group of 2 or more ranks, fewer
// than the world, is labelled or ran kernels.
func hasSmallerGroups(t *model.Trace, st []commStats, world int) bool {
	for i, c := range t.Comms {
		if len(c.Members) >= 2 && len(c.Members) < world && (st[i].kernels > 0 || c.Axis != model.AxisUnknown) {
			return true
		}
	}
	return false
}

// worldOrDP: a group of every rank is the default (WORLD) group when other
// groups exist, else the data-parallel group of a pure DP job.
func worldOrDP(smaller bool) model.Axis {
	if smaller {
		return model.AxisWorld
	}
	return model.AxisDP
}

func axisUsed(t *model.Trace, a model.Axis) bool {
	return slices.ContainsFunc(t.Comms, func(c model.Communicator) bool { return c.Axis == a })
}

// labelClasses orders the size classes by kernels per member per step and
// hands out the axes not already taken: the busiest TP, the quietest DP. A
// class other than TP's that runs per-layer traffic (at least busyPerStep
// kernels per member and step) with all-gathers among it is CP (the K/V
// all-gather of context parallelism), when CP is free.
func labelClasses(t *model.Trace, st []commStats, classes map[[2]int32][]int) {
	cs := rankClasses(t, st, classes)
	var pool []model.Axis
	for _, a := range []model.Axis{model.AxisTP, model.AxisCP, model.AxisDP} {
		if !axisUsed(t, a) {
			pool = append(pool, a)
		}
	}
	cpFree := slices.Contains(pool, model.AxisCP)
	for k, c := range cs {
		a := pickAxis(pool, k, len(cs), c.freq)
		if a != model.AxisTP && cpFree && c.contextParallel() {
			a, cpFree = model.AxisCP, false
		}
		for _, i := range c.comms {
			t.Comms[i].Axis, t.Comms[i].AxisBy = a, model.AxisByTraffic
		}
	}
}

// trafficClass is the unknown communicators of one (size, stride) class.
type trafficClass struct {
	comms              []int
	freq               float64 // kernels per member and step
	kernels, allGather int
}

// contextParallel reports per-layer traffic of which at least a quarter is
// all-gather.
func (c trafficClass) contextParallel() bool {
	return c.freq >= busyPerStep && 4*c.allGather >= c.kernels
}

// rankClasses sums each class's traffic and sorts the classes busiest first.
func rankClasses(t *model.Trace, st []commStats, classes map[[2]int32][]int) []trafficClass {
	var cs []trafficClass
	nSteps := float64(stepCount(t, classes))
	for _, ids := range classes {
		c := trafficClass{comms: ids}
		var m int
		for _, i := range ids {
			c.kernels += st[i].kernels
			c.allGather += st[i].allGather
			m += len(t.Comms[i].Members)
		}
		c.freq = float64(c.kernels) / float64(m) / nSteps
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b trafficClass) int { return cmp.Compare(b.freq, a.freq) })
	return cs
}

// busyPerStep is the kernels per member and step above which a lone group
// class is taken for tensor parallelism (two all-reduces per layer and
// pass) rather than data parallelism (a few buckets per step).
const busyPerStep = 16

// pickAxis gives class k of n (busiest first) its axis from pool. A lone
// class is TP or DP by how busy it is when both are free.
func pickAxis(pool []model.Axis, k, n int, freq float64) model.Axis {
	hasTP, hasDP := slices.Contains(pool, model.AxisTP), slices.Contains(pool, model.AxisDP)
	switch {
	case n == 1 && hasTP && hasDP && freq >= busyPerStep:
		return model.AxisTP
	case n == 1 && hasDP:
		return model.AxisDP
	case n == 1 && hasTP:
		return model.AxisTP
	case k >= len(pool):
		return model.AxisUnknown
	case k == n-1:
		return pool[len(pool)-1]
	}
	return pool[k]
}

// stepCount is the number of step ranges (steps.StepLike, of the
// preferred family) of the first rank that has any; without step ranges,
// the steps the traffic shows (periodSteps); at least 1.
func stepCount(t *model.Trace, classes map[[2]int32][]int) int {
	family := map[int32]string{} // name id → step family, "" for none
	for _, r := range t.Ranks {
		counts := map[string]int{}
		lo, hi := t.Events.RankRange(r.Rank)
		for i := lo; i < hi; i++ {
			if t.Events.Kind[i] == model.KindAnnotation {
				counts[stepFamily(t, family, t.Events.Name[i])]++
			}
		}
		for _, f := range steps.Families {
			if counts[f] > 0 {
				return counts[f]
			}
		}
	}
	return max(periodSteps(t, classes), 1)
}

// stepFamily is the step family of name id (steps.StepLike), cached.
func stepFamily(t *model.Trace, cache map[int32]string, id int32) string {
	f, ok := cache[id]
	if !ok {
		f, _, _ = steps.StepLike(t.Names.Get(id))
		cache[id] = f
	}
	return f
}
