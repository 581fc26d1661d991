package layout

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// WorldID is the ID of the communicator inferWorld gives collectives that
// carry no process group.
const WorldID = "world(inferred)"

// inferWorld handles traces with no communicator at all (PyTorch before
// process-group metadata reached the trace: the 2023 DLRM traces): the
// collective kernels of every rank go to one inferred world communicator,
// and each kernel's Seq becomes the number of its instance, so that
// clock.Match pairs them. Instances are the positions of identical
// per-rank sequences (per stream, else overall); when the sequences
// differ, kernels are paired with the lowest rank's by op, size and end
// time (see pairByEnds), and the others stay unmatched with a warning.
// Peerless send_recv kernels join only when every rank runs the same
// sequence and the flags ask for no pipeline; they become all-to-all
// (DLRM's embedding exchange). Otherwise they are left to
// attributePeerless as pipeline p2p. Traces with any communicator are
// left alone.
func inferWorld(t *model.Trace, f Flags) []string {
	if len(t.Comms) > 0 {
		return nil
	}
	seqs := worldCandidates(t, f.PP <= 1)
	if len(seqs) < 2 {
		return nil
	}
	ranks := slices.Sorted(maps.Keys(seqs))
	inst, ok := sameSequences(t, ranks, seqs)
	var warnings []string
	if !ok && f.PP <= 1 {
		seqs = worldCandidates(t, false)
		ranks = slices.Sorted(maps.Keys(seqs))
		inst, ok = sameSequences(t, ranks, seqs)
	}
	if len(ranks) < 2 {
		return nil
	}
	if !ok {
		inst, warnings = pairByEnds(t, ranks, seqs)
	}
	assignWorld(t, ranks, seqs, inst)
	return warnings
}

// worldCandidates lists each rank's communication kernels that have no
// communicator, in end order: collectives, and peerless send_recv kernels
// when sendRecv is set (p2p kernels with a known peer are pipeline links).
func worldCandidates(t *model.Trace, sendRecv bool) map[int32][]int {
	out := map[int32][]int{}
	ev := &t.Events
	for i := ev.NextKind(model.KindComm, 0, ev.Len()); i < ev.Len(); i = ev.NextKind(model.KindComm, i+1, ev.Len()) {
		c := ev.Coll[i]
		if c < 0 || int(c) >= t.Colls.Len() || t.Colls.Comm[c] >= 0 ||
			t.Colls.Op[c].PointToPoint() && (t.Colls.Peer[c] >= 0 || !sendRecv || t.Colls.Op[c] != model.OpSendRecv) {
			continue
		}
		out[ev.Rank[i]] = append(out[ev.Rank[i]], i)
	}
	for _, idx := range out {
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(end(t, a), end(t, b)) })
	}
	return out
}

func end(t *model.Trace, i int) int64 { return t.Events.Start[i] + t.Events.Dur[i] }

// worldOp is the op a kernel counts as in the world group: a peerless
// send_recv is an all-to-all.
func worldOp(t *model.Trace, i int) model.Op {
	if op := t.Colls.Op[t.Events.Coll[i]]; op != model.OpSendRecv {
		return op
	}
	return model.OpAllToAll
}

// compatible reports whether kernels a and b (of two ranks) can be one
// instance: the same op and, when both are known, the same size, except
// for all-to-all, whose per-rank sizes differ with uneven splits.
func compatible(t *model.Trace, a, b int) bool {
	op := worldOp(t, a)
	if op != worldOp(t, b) {
		return false
	}
	x, y := t.Colls.Bytes[t.Events.Coll[a]], t.Colls.Bytes[t.Events.Coll[b]]
	return op == model.OpAllToAll || x < 0 || y < 0 || x == y
}

// worldAxis is DP when the job shows no other axis (no p2p kernel with a
// peer: a pure data-parallel job, or DLRM's data-parallel dense part with
// its embedding all-to-all), else WORLD.
func worldAxis(t *model.Trace) model.Axis {
	for c := range t.Colls.Op {
		if t.Colls.Op[c].PointToPoint() && t.Colls.Peer[c] >= 0 {
			return model.AxisWorld
		}
	}
	return model.AxisDP
}

// assignWorld points every candidate kernel at the world communicator with
// Seq = its instance's number; a kernel in no instance gets a Seq of its
// own past the instances', so that matching drops it rather than pairing
// it by order.
func assignWorld(t *model.Trace, ranks []int32, seqs map[int32][]int, inst [][]int) {
	comm := t.AddComm(model.Communicator{ID: WorldID, Members: ranks, Axis: worldAxis(t), AxisBy: model.AxisByTraffic})
	uses := collUses(t)
	seqOf := slices.Repeat([]int64{-1}, t.Events.Len())
	for k, row := range inst {
		for _, i := range row {
			if i >= 0 {
				seqOf[i] = int64(k)
			}
		}
	}
	next := int64(len(inst))
	for _, r := range ranks {
		for _, i := range seqs[r] {
			s := seqOf[i]
			if s < 0 {
				s, next = next, next+1
			}
			setWorld(t, i, comm, s, uses)
		}
	}
}

// setWorld sets event i's collective to the world communicator, sequence
// number s and its world op, copying a row other events share.
func setWorld(t *model.Trace, i int, comm int32, s int64, uses []int32) {
	c := t.Events.Coll[i]
	if uses[c] > 1 {
		uses[c]--
		c = t.Colls.Append(t.Colls.At(int(c)))
		t.Events.Coll[i] = c
	}
	t.Colls.Op[c] = worldOp(t, i)
	t.Colls.Comm[c], t.Colls.Seq[c] = comm, s
}

// sameSequences returns the instances when every rank runs the same
// sequence of collectives: per stream (the same stream IDs on every rank),
// else overall. Each instance lists one kernel per rank, in ranks' order.
func sameSequences(t *model.Trace, ranks []int32, seqs map[int32][]int) ([][]int, bool) {
	if inst, ok := samePerStream(t, ranks, seqs); ok {
		return inst, true
	}
	lists := make([][]int, len(ranks))
	for k, r := range ranks {
		lists[k] = seqs[r]
	}
	return zipSame(t, lists)
}

// zipSame zips equal-length lists whose kernels are compatible position
// by position.
func zipSame(t *model.Trace, lists [][]int) ([][]int, bool) {
	n := len(lists[0])
	for _, l := range lists[1:] {
		if len(l) != n {
			return nil, false
		}
	}
	inst := make([][]int, n)
	for p := range n {
		row := make([]int, len(lists))
		for k, l := range lists {
			if !compatible(t, lists[0][p], l[p]) {
				return nil, false
			}
			row[k] = l[p]
		}
		inst[p] = row
	}
	return inst, true
}

// samePerStream splits each rank's kernels by stream ID and zips each
// stream's sequences across ranks.
func samePerStream(t *model.Trace, ranks []int32, seqs map[int32][]int) ([][]int, bool) {
	per := make([]map[int64][]int, len(ranks))
	for k, r := range ranks {
		per[k] = map[int64][]int{}
		for _, i := range seqs[r] {
			id := streamID(t, i)
			per[k][id] = append(per[k][id], i)
		}
	}
	var inst [][]int
	for _, id := range slices.Sorted(maps.Keys(per[0])) {
		lists := make([][]int, len(ranks))
		for k := range ranks {
			if lists[k] = per[k][id]; len(per[k]) != len(per[0]) || lists[k] == nil {
				return nil, false
			}
		}
		rows, ok := zipSame(t, lists)
		if !ok {
			return nil, false
		}
		inst = append(inst, rows...)
	}
	slices.SortStableFunc(inst, func(a, b []int) int { return cmp.Compare(end(t, a[0]), end(t, b[0])) })
	return inst, true
}

func streamID(t *model.Trace, i int) int64 {
	if s := t.Events.Stream[i]; s >= 0 && int(s) < len(t.Streams) {
		return t.Streams[s].ID
	}
	return -1
}

// describeMismatch names why rank r's sequence is not the reference's.
func describeMismatch(ref, r int32, n, paired, total int) string {
	return fmt.Sprintf("collectives without process group: rank %d's sequence differs from rank %d's (%d kernels against %d); %d of rank %d's kernels paired by op, size and end time, the rest are not matched",
		r, ref, n, total, paired, r)
}
