package inspector

import (
	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/model"
)

// InspectorStream names the GPU stream Inspector events are put on.
const InspectorStream = "nccl (inspector)"

// inspectorIndex maps what Inspector records name to the trace: a
// process to its global rank, a communicator rank to a global rank, a
// communicator key to its index.
type inspectorIndex struct {
	proc   map[proc]int32
	member map[commMember]int32
	comm   map[string]int32
}

// proc is one process: a host and a pid.
type proc struct {
	host string
	pid  int64
}

type commMember struct {
	id   string
	rank int32
}

// newInspectorIndex indexes t, built by nccl.ViewsTrace from views. Processes
// that drive several ranks are left out: their records cannot be placed.
func newInspectorIndex(t *model.Trace, views []nccl.CommView) *inspectorIndex {
	x := &inspectorIndex{proc: map[proc]int32{}, member: map[commMember]int32{}, comm: map[string]int32{}}
	count := map[proc]int{}
	for _, r := range t.Ranks {
		k := proc{r.Host, r.PID}
		x.proc[k] = r.Rank
		count[k]++
	}
	for k, n := range count {
		if n > 1 {
			delete(x.proc, k)
		}
	}
	for _, v := range views {
		if g, ok := x.proc[proc{v.Host, v.PID}]; ok {
			x.member[commMember{v.ID, v.Rank}] = g
		}
	}
	for i, c := range t.Comms {
		x.comm[c.ID] = int32(i)
	}
	return x
}

// addEvents turns the verbose records (those with event_trace_ts) into
// KindComm events with collectives on an "nccl (inspector)" GPU stream of
// their rank. Records without a usable time (non-verbose ones) and records
// of processes driving several ranks give no event.
func (c *collector) addEvents(t *model.Trace, x *inspectorIndex) {
	streams := map[int32]int32{}
	for _, r := range c.timed {
		v := &c.views[r.view]
		g, known := x.proc[proc{v.Host, v.PID}]
		if !known {
			continue
		}
		s, seen := streams[g]
		if !seen {
			s = t.AddStream(model.Stream{Rank: g, GPU: true, ID: 0, Device: -1, Name: InspectorStream})
			streams[g] = s
		}
		ev := model.NewEvent(g, model.KindComm, t.Names.Intern("nccl:"+c.ops[r.op]), r.start, r.dur)
		ev.Stream, ev.Coll = s, t.Colls.Append(inspectorCollective(r, c.ops[r.op], v, x))
		t.AddEvent(ev)
	}
}

// inspectorCollective is the record's collective: the communicator by its
// hash key, Seq = coll_sn (NCCL's per-operation counter, equal on every
// member) for collectives; p2p_sn counts per process and is not kept, so
// send/recv pairs are matched by order. Bytes are the input side: a
// ReduceScatter's recorded message is its output, 1/n of the input.
func inspectorCollective(r timedRec, op string, v *nccl.CommView, x *inspectorIndex) model.Collective {
	c := model.NewCollective(inspectorOp(op))
	c.Bytes, c.GroupSize = r.bytes, v.NRanks
	if c.Op == model.OpReduceScatter && v.NRanks > 0 {
		c.Bytes = r.bytes * int64(v.NRanks)
	}
	if i, ok := x.comm[v.ID]; ok {
		c.Comm = i
	}
	if r.peer < 0 {
		c.Seq = r.seq
	} else if p, ok := x.member[commMember{v.ID, r.peer}]; ok {
		c.Peer = p
	}
	return c
}

// inspectorOp maps ncclFuncToString names to ops.
func inspectorOp(name string) model.Op {
	switch name {
	case "AllReduce":
		return model.OpAllReduce
	case "AllGather", "AllGatherV":
		return model.OpAllGather
	case "ReduceScatter":
		return model.OpReduceScatter
	case "Broadcast":
		return model.OpBroadcast
	case "Reduce":
		return model.OpReduce
	case "AlltoAll", "AllToAll":
		return model.OpAllToAll
	case "Send":
		return model.OpSend
	case "Recv":
		return model.OpRecv
	case "SendRecv":
		return model.OpSendRecv
	}
	return model.OpOther
}
