package samples

import (
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// op emits op i's CPU events, launch and kernel.
func (e *emitter) op(x *rankCtx, o *op, i int) {
	st := &e.s.ranks[x.r]
	lo, hi := st.cpuStart[i], st.cpuEnd[i]
	if !e.s.cfg.cpuSide() {
		e.gpuOnly(x, o, i)
		return
	}
	x.cur = e.thread(x, o)
	defer func() { x.cur = x.thread }()
	if o.class == classSync {
		e.cpu(x, model.KindRuntime, syncName, lo, hi, -1)
		return
	}
	e.corr++
	launch := lo + e.s.launchOffset(o)
	ldur := e.s.cfg.LaunchNs / 2
	if o.class == classCompute {
		if x.cur == x.grad {
			e.cpu(x, model.KindCPUOp, "autograd::engine::evaluate_function: "+autogradNode(o.cpuOp), lo, hi, -1)
		}
		e.cpu(x, model.KindCPUOp, o.cpuOp, lo, hi, -1)
		e.cpu(x, model.KindRuntime, launchName, launch, launch+ldur, e.corr)
		if st.start[i] < x.cut {
			e.kernel(x, o, i, model.KindCompute, -1)
		}
		return
	}
	e.commCPU(x, o, lo, hi)
	e.cpu(x, model.KindRuntime, launchExC, launch, launch+ldur, e.corr)
	if st.start[i] < x.cut { // kernels that had not started when the capture ended are lost
		e.kernel(x, o, i, model.KindComm, e.collective(o))
	}
}

// commCPU emits the c10d op, record_param_comms and the nccl:* annotation
// around a collective's launch; batched p2p without metadata only shows
// nccl:coalesced, and p2p without sequence number or peer (P2PNoSeq) titles
// its annotation without the peer.
func (e *emitter) commCPU(x *rankCtx, o *op, lo, hi int64) {
	d := e.s.cfg.LaunchNs / 6
	if o.coll.PointToPoint() && e.s.cfg.coalescedP2P() {
		e.cpu(x, model.KindAnnotation, "nccl:coalesced", lo+2*d, hi-2*d, -1)
		return
	}
	e.cpu(x, model.KindCPUOp, o.cpuOp, lo, hi, -1)
	e.cpu(x, model.KindCPUOp, RecordParamComms, lo+d, hi-d, -1)
	title := ncclTitle(o, x.r)
	if o.coll.PointToPoint() && e.s.cfg.P2PNoSeq {
		title, _, _ = strings.Cut(title, " ")
	}
	e.cpu(x, model.KindAnnotation, title, lo+2*d, hi-2*d, -1)
}

// RecordParamComms is the CPU op that carries a collective's metadata.
const RecordParamComms = "record_param_comms"

// ncclTitle is ProcessGroupNCCL's profiling title of a collective.
func ncclTitle(o *op, rank int32) string {
	switch o.coll {
	case model.OpSend:
		return fmt.Sprintf("nccl:send %d->%d", rank, o.peer)
	case model.OpRecv:
		return fmt.Sprintf("nccl:recv %d<-%d", rank, o.peer)
	case model.OpReduceScatter:
		return "nccl:_reduce_scatter_base"
	case model.OpAllGather:
		return "nccl:_all_gather_base"
	case model.OpAllToAll:
		return "nccl:all_to_all"
	}
	return "nccl:all_reduce"
}

func (e *emitter) kernel(x *rankCtx, o *op, i int, k model.Kind, coll int32) {
	st := &e.s.ranks[x.r]
	ev := model.NewEvent(x.r, k, e.t.Names.Intern(o.kernel), st.start[i]+x.off, st.end[i]-st.start[i])
	ev.Stream, ev.Corr, ev.Coll = e.stream(x, o.slot), e.corr, coll
	e.t.AddEvent(ev)
}

// collective adds the collective row of a communication kernel as the
// profiler records it: batched p2p without metadata is only known to be a
// send/recv kernel.
func (e *emitter) collective(o *op) int32 {
	if o.coll.PointToPoint() && e.s.cfg.coalescedP2P() {
		return e.t.Colls.Append(model.NewCollective(model.OpSendRecv))
	}
	in := &e.s.insts[o.inst]
	g, seq, peer := in.key.group, o.seq, o.peer
	if o.coll.PointToPoint() {
		seq = in.wireSeq
		if e.s.cfg.P2PNoSeq {
			seq, peer = -1, -1
		}
	}
	return e.t.Colls.Append(model.Collective{Op: o.coll, Bytes: in.bytes, DType: e.t.Names.Intern(dtypeBF16),
		Comm: e.comms[g], Seq: seq, Peer: peer, GroupSize: int32(len(e.s.groups[g].members))})
}

// gpuOnly emits op i as a capture without CPU activities records it: the
// kernel alone. Kineto copies a collective's metadata onto its kernel from
// the CPU op that launched it, so without CPU activities a collective is
// known by its kernel's name and stream only (docs/generator.md).
func (e *emitter) gpuOnly(x *rankCtx, o *op, i int) {
	if o.class == classSync || e.s.ranks[x.r].start[i] >= x.cut {
		return
	}
	e.corr++
	if o.class == classCompute {
		e.kernel(x, o, i, model.KindCompute, -1)
		return
	}
	op := o.coll
	if op.PointToPoint() {
		op = model.OpSendRecv
	}
	e.kernel(x, o, i, model.KindComm, e.t.Colls.Append(model.NewCollective(op)))
}

// thread is the CPU thread that launches o: the autograd engine's for
// backward work (not PP transfers) in dialects that run backward there.
func (e *emitter) thread(x *rankCtx, o *op) int32 {
	if !e.s.cfg.autogradThread() || o.phase != phaseBwd || o.class == classPP {
		return x.thread
	}
	if x.grad < 0 {
		dev := int(x.r) % e.s.cfg.GPUsPerHost
		x.grad = e.t.AddStream(model.Stream{Rank: x.r, ID: PID(int(x.r)) + 17, Device: -1,
			Name: fmt.Sprintf("thread %d (pt_autograd_%d)", PID(int(x.r))+17, dev)})
	}
	return x.grad
}
