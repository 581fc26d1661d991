package inspector

import (
	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/model"
)

// collector keeps what the trace needs of the records streamed to it: each
// distinct communicator membership (view) and, of the timed records, a
// compact record naming its view and operation by index.
type collector struct {
	views  []nccl.CommView
	seen   map[nccl.CommView]int32 // index of a view's first copy
	copies map[nccl.CommView]bool  // views seen more than once
	ops    []string
	opIdx  map[string]int32
	timed  []timedRec
}

// timedRec is a record with a Span: what its event and collective need.
type timedRec struct {
	start, dur, seq, bytes int64
	view, op, peer         int32
}

func newCollector() *collector {
	return &collector{seen: map[nccl.CommView]int32{}, copies: map[nccl.CommView]bool{}, opIdx: map[string]int32{}}
}

// add keeps r's view and, when r is timed, its compact record.
func (c *collector) add(r InspectorRecord) {
	v := c.view(nccl.CommView{ID: nccl.HexKey(r.CommID), Name: r.CommName, Host: r.Host, PID: r.PID, Rank: r.Rank, NRanks: r.NRanks})
	start, dur, ok := r.Span()
	if !ok {
		return
	}
	c.timed = append(c.timed, timedRec{start: start, dur: dur, seq: r.Seq, bytes: r.Bytes, view: v, op: c.op(r.Op), peer: r.Peer})
}

// op returns the index of an operation's name, numbered as first seen.
func (c *collector) op(name string) int32 {
	i, known := c.opIdx[name]
	if !known {
		i = int32(len(c.ops))
		c.ops, c.opIdx[name] = append(c.ops, name), i
	}
	return i
}

// merge adds what o kept as if o's records were added here, after those
// added so far: o's views in the order o lists them (a view's first two
// copies, the only ones that can be listed here too), its operations, and
// its timed records renumbered to this collector's views and operations.
func (c *collector) merge(o *collector) {
	views := make([]int32, len(o.views))
	for i, v := range o.views {
		views[i] = c.view(v)
	}
	ops := make([]int32, len(o.ops))
	for i, name := range o.ops {
		ops[i] = c.op(name)
	}
	for _, r := range o.timed {
		r.view, r.op = views[r.view], ops[r.op]
		c.timed = append(c.timed, r)
	}
}

// view returns the index of v's first copy. A view is listed at most
// twice: nccl.ViewsTrace tells a process holding one rank of the largest
// communicator from one holding several by the number of its views there,
// and a second copy keeps that count what the records give.
func (c *collector) view(v nccl.CommView) int32 {
	i, ok := c.seen[v]
	if !ok {
		i = int32(len(c.views))
		c.seen[v] = i
		c.views = append(c.views, v)
	} else if !c.copies[v] {
		c.copies[v] = true
		c.views = append(c.views, v)
	}
	return i
}

// trace builds the trace of the records added, read from paths.
func (c *collector) trace(paths []string) *model.Trace {
	t := nccl.ViewsTrace(c.views, "nccl-inspector", paths)
	c.addEvents(t, newInspectorIndex(t, c.views))
	t.Events.Sort()
	t.Fallback = t.Events.Len() > 0
	return t
}
