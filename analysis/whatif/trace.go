package whatif

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/clock"
	"github.com/tpptrace/tpptrace/model"
)

// Cross-stream edges: an op depends on the op of another stream of its
// rank that ended at most waitTolNs before it started (a stream wait
// releases the waiter within a few µs); slightly negative gaps are clock
// rounding.
const (
	waitTolNs  = 5_000
	roundTolNs = 1_000
)

// TraceInput is what FromTrace needs besides the trace: the matched
// collective instances, the clock offsets and the analysed iterations
// (Events.Iter set by the step segmentation).
type TraceInput struct {
	Trace     *model.Trace
	Instances []clock.Instance
	Offset    func(rank int32) int64 // rank's clock − the reference clock (ns)
	Iters     []int32                // analysed iterations, ascending
	IterStart []int64                // each iteration's start on the reference clock (ns)
}

// traceBuilder collects the GPU ops of the analysed steps.
type traceBuilder struct {
	in    TraceInput
	g     *Graph
	opOf  map[int32]int32 // event index -> op id
	types map[string]int32
}

// FromTrace builds the replay graph of a normalized trace: every GPU
// kernel, collective and copy of the analysed steps is an op; ops on one
// stream form a chain; an op waits for the op of another stream of its
// rank that ended right before it started; every matched collective
// instance (TP/DP/CP/EP collectives, PP send/recv pairs) is a
// synchronisation group.
func FromTrace(in TraceInput) (*Graph, error) {
	b := &traceBuilder{in: in, g: &Graph{BreakCycles: true}, opOf: map[int32]int32{}, types: map[string]int32{}}
	for _, it := range in.Iters {
		b.g.Steps = append(b.g.Steps, int64(it))
	}
	b.workers()
	for w := range b.g.Workers {
		b.rankOps(int32(w))
	}
	if b.g.Len() == 0 {
		return nil, fmt.Errorf("whatif: no GPU op in the analysed steps")
	}
	b.groups()
	if err := b.g.Finish(); err != nil {
		return nil, fmt.Errorf("whatif: %w", err)
	}
	return b.g, nil
}

func (b *traceBuilder) workers() {
	for _, r := range b.in.Trace.Ranks {
		c := r.Coord
		b.g.Workers = append(b.g.Workers, Worker{Rank: r.Rank, DP: max(c.DP, 0), Stage: max(c.PP, 0)})
	}
}

// gpuOp reports whether event i is an op: a GPU kernel, collective, copy
// or set of an analysed step.
func (b *traceBuilder) gpuOp(i int) bool {
	ev := &b.in.Trace.Events
	k := ev.Kind[i]
	return (k == model.KindCompute || k == model.KindComm || k == model.KindMemcpy || k == model.KindMemset) &&
		ev.Iter[i] >= 0 && ev.Stream[i] >= 0
}

// rankOps adds worker w's ops, per step, and its stream and cross-stream edges.
func (b *traceBuilder) rankOps(w int32) {
	t := b.in.Trace
	ev := &t.Events
	rank := b.g.Workers[w].Rank
	lo, hi := ev.RankRange(rank)
	off := b.in.Offset(rank)
	var ids []int32
	for i := lo; i < hi; i++ {
		si, ok := slices.BinarySearch(b.in.Iters, ev.Iter[i])
		if !b.gpuOp(i) || !ok {
			continue
		}
		base := b.in.IterStart[si]
		s := float64(ev.Start[i]-off-base) / 1e9
		id := b.g.AddOp(b.typeOf(i), w, int32(si), s, s+float64(ev.Dur[i])/1e9)
		b.opOf[int32(i)] = id
		ids = append(ids, int32(i))
	}
	b.streamEdges(ids)
}

// typeOf names event i's op type: the kernel name, prefixed with the
// communicator axis for a collective.
func (b *traceBuilder) typeOf(i int) int32 {
	t := b.in.Trace
	name := t.Names.Get(t.Events.Name[i])
	axis := ""
	if c := t.Events.Coll[i]; c >= 0 && t.Colls.Comm[c] >= 0 {
		axis = t.Comms[t.Colls.Comm[c]].Axis.String()
	}
	comm := t.Events.Kind[i] == model.KindComm
	key := name
	if comm {
		key = axis + ":" + name
	}
	if id, ok := b.types[key]; ok {
		return id
	}
	id := b.g.addType(key, comm, axis)
	b.types[key] = id
	return id
}

// streamEdges chains each stream's ops (event ids, sorted by start) and
// adds the cross-stream waits, looking at the last two ops of every other
// stream. An op that none of these released (it started later than
// waitTolNs after its predecessors ended: a launch delay) is tied to the
// rank's op that ended last before it started, so that its delay moves
// with the rank's progress (the CPU runs a bounded queue ahead of the GPU).
func (b *traceBuilder) streamEdges(ids []int32) {
	ev := &b.in.Trace.Events
	last := map[int32][2]int32{} // stream -> latest two ops so far (-1: none)
	for _, i := range ids {
		st := ev.Stream[i]
		ready := int64(-1 << 62)
		if p, ok := last[st]; ok && ev.Iter[p[0]] == ev.Iter[i] {
			b.g.AddEdge(b.opOf[p[0]], b.opOf[i])
			ready = ev.Start[p[0]] + ev.Dur[p[0]]
		}
		latest := int32(-1)
		for s2, ps := range last {
			if s2 == st {
				continue
			}
			if end, ok := b.waitEdge(ps, i); ok {
				ready = max(ready, end)
			}
			latest = b.laterEnd(ps, i, latest)
		}
		if ev.Start[i]-ready > waitTolNs && latest >= 0 {
			b.g.AddEdge(b.opOf[latest], b.opOf[i])
		}
		prev, ok := last[st]
		if !ok {
			prev = [2]int32{-1, -1}
		}
		last[st] = [2]int32{i, prev[0]}
	}
}

// waitEdge adds p → i for the latest of ps that ended within the wait
// tolerance before i started, and returns that end.
func (b *traceBuilder) waitEdge(ps [2]int32, i int32) (int64, bool) {
	ev := &b.in.Trace.Events
	for _, p := range ps {
		if p < 0 || ev.Iter[p] != ev.Iter[i] {
			continue
		}
		end := ev.Start[p] + ev.Dur[p]
		gap := ev.Start[i] - end
		if gap >= -roundTolNs && gap <= waitTolNs {
			b.g.AddEdge(b.opOf[p], b.opOf[i])
			return end, true
		}
		if gap > waitTolNs {
			return 0, false
		}
	}
	return 0, false
}

// laterEnd returns whichever of best and ps ended last before i started
// (same step).
func (b *traceBuilder) laterEnd(ps [2]int32, i, best int32) int32 {
	ev := &b.in.Trace.Events
	for _, p := range ps {
		if p < 0 || ev.Iter[p] != ev.Iter[i] || ev.Start[p]+ev.Dur[p] > ev.Start[i] {
			continue
		}
		if best < 0 || ev.Start[p]+ev.Dur[p] > ev.Start[best]+ev.Dur[best] {
			best = p
		}
	}
	return best
}

// groups makes each matched collective instance whose members are all ops
// of one step a synchronisation group.
func (b *traceBuilder) groups() {
	for _, in := range b.in.Instances {
		ms := make([]int32, 0, len(in.Events))
		for _, e := range in.Events {
			if id, ok := b.opOf[e]; ok && (len(ms) == 0 || b.g.Step[id] == b.g.Step[ms[0]]) {
				ms = append(ms, id)
			}
		}
		if len(ms) == len(in.Events) && len(ms) > 1 {
			b.g.AddGroup(ms...)
		}
	}
}
