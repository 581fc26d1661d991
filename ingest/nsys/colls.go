package nsys

import "github.com/tpptrace/tpptrace/model"

// pendColl is a collective row whose communicator and peer wait for every
// report to be read: communicator members and the comm-rank -> global rank
// map come from all reports' ncclCommInitRank payloads.
type pendColl struct {
	coll    int32
	ev      int32
	rank    int32 // global rank, set by finish
	comm    uint64
	hasComm bool
	peer    int32 // rank within the communicator, -1 when unknown
	nranks  int32
}

// makeColls gives every NCCL kernel a collective row from its payloads,
// or from its name when no NCCL range was tied to it.
func (b *builder) makeColls(acc map[int32]*collAcc) {
	ev := &b.tr.Events
	for i := 0; i < ev.Len(); i++ {
		if ev.Kind[i] != model.KindComm {
			continue
		}
		c := model.NewCollective(kernelOp(b.tr.Names.Get(ev.Name[i])))
		pc := pendColl{ev: int32(i), peer: -1, nranks: -1}
		if a := acc[int32(i)]; a != nil {
			c.Op, c.Bytes = mergeOps(a.ops), a.bytes
			pc = a.pend(pc)
		}
		pc.coll = b.tr.Colls.Append(c)
		ev.Coll[i] = pc.coll
		b.colls = append(b.colls, pc)
	}
}

// mergeOps is the op of a kernel serving several calls: a send and a recv
// fused in one kernel are a send_recv.
func mergeOps(ops []model.Op) model.Op {
	op := ops[0]
	for _, o := range ops[1:] {
		if o != op {
			if o.PointToPoint() && op.PointToPoint() {
				return model.OpSendRecv
			}
			return op
		}
	}
	return op
}

func (a *collAcc) pend(pc pendColl) pendColl {
	peers := map[int32]bool{}
	for _, p := range a.ps {
		if p.hasComm && !pc.hasComm {
			pc.comm, pc.hasComm = p.comm, true
		}
		if p.peer >= 0 {
			peers[p.peer] = true
		}
	}
	if len(peers) == 1 {
		for p := range peers {
			pc.peer = p
		}
	}
	return pc
}
