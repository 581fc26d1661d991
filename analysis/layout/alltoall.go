package layout

import (
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// An all-to-all is expert parallelism (MoE token dispatch and combine)
// only with an EP cue: a description (EXPERT_MODEL_PARALLEL_GROUP,
// mesh_ep), the user's --ep, or per-layer traffic — two all-to-alls per
// MoE layer and pass, at least busyPerStep per member and step. A group
// that runs fewer is a recommender's embedding exchange (DLRM, TorchRec:
// a few per step, over the world or a data-parallel group), and neither
// EP nor data-parallel gradient sync: its communicator is A2A.

// moeLike reports whether a group's all-to-alls are per-layer traffic.
func moeLike(s commStats, members, steps int) bool {
	return members > 0 && float64(s.allToAll)/float64(members)/float64(max(steps, 1)) >= busyPerStep
}

// allToAllAxis is the axis of a group that runs mostly all-to-all: EP
// when its traffic is per layer and no description named EP, A2A when it
// is not per layer, else unknown (the traffic classes decide).
func allToAllAxis(s commStats, members, steps int, epFree bool) model.Axis {
	switch {
	case !moeLike(s, members, steps):
		return model.AxisA2A
	case epFree:
		return model.AxisEP
	}
	return model.AxisUnknown
}

// splitAllToAll gives the all-to-all kernels of each DP or WORLD
// communicator their own communicator "<id>/all_to_all" (same members,
// axis A2A), unless they are per-layer traffic: DLRM's one default group
// carries both the dense gradient all-reduce (DP) and the embedding
// all-to-all, which is not gradient sync. A group running nothing but
// all-to-all becomes A2A itself. Clock matching keys collectives by op, so
// the split keeps every instance whole.
func splitAllToAll(t *model.Trace) {
	st := countTraffic(t)
	steps := stepCount(t, nil) // step ranges, else 1: the traffic classes are not known yet
	for i := range len(t.Comms) {
		c := t.Comms[i]
		if c.Axis != model.AxisDP && c.Axis != model.AxisWorld || st[i].allToAll == 0 || moeLike(st[i], len(c.Members), steps) {
			continue
		}
		if st[i].allToAll == st[i].kernels {
			t.Comms[i].Axis, t.Comms[i].AxisBy = model.AxisA2A, model.AxisByTraffic
			continue
		}
		id := t.AddComm(model.Communicator{ID: c.ID + "/all_to_all", Name: c.Name, Desc: c.Desc,
			Members: slices.Clone(c.Members), Axis: model.AxisA2A, AxisBy: model.AxisByTraffic})
		moveOp(t, int32(i), id, model.OpAllToAll)
	}
}

// moveOp moves the collectives of op on communicator from to communicator to.
func moveOp(t *model.Trace, from, to int32, op model.Op) {
	for c := range t.Colls.Len() {
		if t.Colls.Comm[c] == from && t.Colls.Op[c] == op {
			t.Colls.Comm[c] = to
		}
	}
}
