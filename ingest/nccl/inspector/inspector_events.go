package inspector

import (
	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/nccl"
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

// addInspectorEvents turns the verbose records (those with event_trace_ts)
// into KindComm events with collectives on an "nccl (inspector)" GPU
// stream of their rank. Records without a usable time (non-verbose ones)
// and records of processes driving several ranks give no event.
func addInspectorEvents(t *model.Trace, recs []InspectorRecord, x *inspectorIndex) {
	streams := map[int32]int32{}
	for _, r := range recs {
		start, dur, ok := r.Span()
		g, known := x.proc[proc{r.Host, r.PID}]
		if !ok || !known {
			continue
		}
		s, seen := streams[g]
		if !seen {
			s = t.AddStream(model.Stream{Rank: g, GPU: true, ID: 0, Device: -1, Name: InspectorStream})
			streams[g] = s
		}
		ev := model.NewEvent(g, model.KindComm, t.Names.Intern("nccl:"+r.Op), start, dur)
		ev.Stream, ev.Coll = s, t.Colls.Append(inspectorCollective(r, x))
		t.AddEvent(ev)
	}
}

// inspectorCollective is the record's collective: the communicator by its
// hash key, Seq = coll_sn (NCCL's per-operation counter, equal on every
// member) for collectives; p2p_sn counts per process and is not kept, so
// send/recv pairs are matched by order. Bytes are the input side: a
// ReduceScatter's recorded message is its output, 1/n of the input.
func inspectorCollective(r InspectorRecord, x *inspectorIndex) model.Collective {
	key := nccl.HexKey(r.CommID)
	c := model.NewCollective(inspectorOp(r.Op))
	c.Bytes, c.GroupSize = r.Bytes, r.NRanks
	if c.Op == model.OpReduceScatter && r.NRanks > 0 {
		c.Bytes = r.Bytes * int64(r.NRanks)
	}
	if i, ok := x.comm[key]; ok {
		c.Comm = i
	}
	if r.Peer < 0 {
		c.Seq = r.Seq
	} else if p, ok := x.member[commMember{key, r.Peer}]; ok {
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
