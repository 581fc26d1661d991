package flightrec

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// addFREvents turns the dump's timed entries (duration_ms, recorded with
// TORCH_NCCL_ENABLE_TIMING=1) into KindComm events with collectives on a
// "nccl (flight recorder)" stream of the rank. An event starts when the
// watchdog saw the collective start (time_discovered_started_ns), else at
// its enqueue (time_created_ns), and lasts duration_ms; the collective is
// keyed (process group, collective_seq_id), or p2p_seq_id for p2p. The
// trace is a Fallback: a rank's timeline from Kineto or nsys replaces them.
func addFREvents(t *model.Trace, d *model.FRDump) {
	a := frAdder{t: t, d: d, stream: -1}
	for _, e := range d.Entries {
		a.add(e)
	}
}

// frAdder adds one dump's entries to a trace, one at a time.
type frAdder struct {
	t      *model.Trace
	d      *model.FRDump
	stream int32 // -1 until the first timed entry
}

func (a *frAdder) add(e model.FREntry) {
	if e.Duration < 0 {
		return
	}
	t, d := a.t, a.d
	if a.stream < 0 {
		a.stream = t.AddStream(model.Stream{Rank: d.Rank, GPU: true, ID: 0, Device: -1, Name: "nccl (flight recorder)"})
	}
	start := e.Created
	if e.Started > 0 {
		start = e.Started
	}
	ev := model.NewEvent(d.Rank, model.KindComm, t.Names.Intern(e.Name), start, int64(e.Duration*1e6))
	ev.Stream = a.stream
	ev.Coll = t.Colls.Append(frCollective(t, d, e))
	t.AddEvent(ev)
}

func frCollective(t *model.Trace, d *model.FRDump, e model.FREntry) model.Collective {
	c := model.NewCollective(frOp(e.Name))
	g := d.Groups[e.PGName]
	c.Comm = t.AddComm(model.Communicator{ID: e.PGName, Name: e.PGName, Desc: e.PGDesc, Members: g.Ranks})
	c.Seq, c.GroupSize = e.CollSeq, int32(len(g.Ranks))
	if e.IsP2P {
		c.Seq, c.Peer = e.P2PSeq, frPeer(e.Name, g.Ranks)
	}
	if len(e.InSizes) > 0 && len(e.InDTypes) > 0 {
		n := int64(1)
		for _, x := range e.InSizes[0] {
			n *= x
		}
		c.Bytes = n * dtypeBytes(e.InDTypes[0])
		c.DType = t.Names.Intern(e.InDTypes[0])
	}
	return c
}

// frOp maps a profiling name ("nccl:all_reduce", "nccl:_allgather_base",
// "nccl:send 0->1") to an op.
func frOp(name string) model.Op {
	n := strings.ReplaceAll(strings.TrimPrefix(name, "nccl:"), "_", "")
	for _, k := range []struct {
		p  string
		op model.Op
	}{{"allreduce", model.OpAllReduce}, {"allgather", model.OpAllGather}, {"reducescatter", model.OpReduceScatter},
		{"alltoall", model.OpAllToAll}, {"broadcast", model.OpBroadcast}, {"reduce", model.OpReduce},
		{"barrier", model.OpBarrier}, {"send", model.OpSend}, {"recv", model.OpRecv}} {
		if strings.HasPrefix(n, k.p) {
			return k.op
		}
	}
	return model.OpOther
}

var peerRe = regexp.MustCompile(`(\d+)(?:->|<-)(\d+)$`)

// frPeer is the global rank of the peer of "send a->b" / "recv a<-b"
// (group ranks), -1 when unknown.
func frPeer(name string, ranks []int32) int32 {
	m := peerRe.FindStringSubmatch(name)
	if m == nil {
		return -1
	}
	b, _ := strconv.Atoi(m[2])
	if b < 0 || b >= len(ranks) {
		return -1
	}
	return ranks[b]
}

// dtypeBytes is the size of a PyTorch dtype name, 1 when unknown.
func dtypeBytes(s string) int64 {
	switch s {
	case "Double", "Long", "ComplexFloat":
		return 8
	case "Float", "Int":
		return 4
	case "BFloat16", "Half", "Short":
		return 2
	}
	return 1
}
