package samples

import "github.com/tpptrace/tpptrace/model"

// collNames are the kernel and the c10d CPU op of each collective.
var collNames = map[model.Op][2]string{
	model.OpAllReduce:     {ncclAllReduce, "c10d::allreduce_"},
	model.OpReduceScatter: {ncclReduceScatter, "c10d::_reduce_scatter_base_"},
	model.OpAllGather:     {ncclAllGather, "c10d::_allgather_base_"},
	model.OpSend:          {ncclSendRecv, "c10d::send"},
	model.OpRecv:          {ncclSendRecv, "c10d::recv_"},
	model.OpAllToAll:      {ncclSendRecv, "c10d::alltoall_base_"}, // NCCL runs all-to-all as grouped send/recv
}

// axisClass maps a group's axis to an op class.
func axisClass(a model.Axis) opClass {
	switch a {
	case model.AxisTP:
		return classTP
	case model.AxisPP:
		return classPP
	case model.AxisCP:
		return classCP
	case model.AxisEP:
		return classEP
	}
	return classDP
}

// collective appends a collective over group g whose input is the last
// compute kernel (and a pending all-reduce, if any).
func (b *builder) collective(o model.Op, g int32, sl slot, ph phase, mb, step int32, bytes int64) int32 {
	k := instKey{group: g, src: -1, dst: -1}
	return b.addComm(o, k, sl, ph, mb, step, bytes, -1, [2]int32{b.last, b.waits[0]})
}

// p2p appends a send to or a recv from the same (tp, cp, ep, dp) rank of stage
// peerStage, on the PP group. Instances are keyed per channel (activations
// on the send-next/recv-prev streams, gradients on the others), since with
// two stages and interleaving both flow in one direction; the Seq written is
// numbered per direction after the run (numberP2P).
func (b *builder) p2p(o model.Op, peerStage int, sl slot, ph phase, mb, step int32) int32 {
	c := b.sim.cfg
	at := c.Place(b.r)
	at.PP = peerStage
	peer := int32(c.RankAt(at))
	k := instKey{group: b.sim.ppOf[b.r], src: int32(b.r), dst: peer, grad: sl == slotSendPrev || sl == slotRecvNext}
	deps := [2]int32{b.last, b.waits[0]}
	if o == model.OpRecv {
		k.src, k.dst, deps = peer, int32(b.r), [2]int32{-1, -1}
	}
	return b.addComm(o, k, sl, ph, mb, step, b.sim.msgBytes(c.ActivationBytes, step, mb), peer, deps)
}

func (b *builder) addComm(o model.Op, k instKey, sl slot, ph phase, mb, step int32, bytes int64, peer int32, deps [2]int32) int32 {
	ck := k
	k.seq = b.seqs[ck]
	b.seqs[ck]++
	names := collNames[o]
	return b.add(op{class: axisClass(b.sim.groups[k.group].axis), slot: sl, phase: ph, kernel: names[0], cpuOp: names[1],
		deps: deps, inst: b.sim.instance(k, bytes, o), seq: k.seq, coll: o, peer: peer, micro: mb, step: step})
}

// dpBuckets appends the next n gradient buckets over the DP group; mb is
// the microbatch whose backward launches them (overlapped), else -1.
func (b *builder) dpBuckets(n int, step int32, ph phase, mb int32) {
	c := b.sim.cfg
	if c.DP < 2 {
		return
	}
	o := model.OpAllReduce
	if c.DistOptimizer {
		o = model.OpReduceScatter
	}
	for range n {
		b.lastDP = b.collective(o, b.sim.dpOf[b.r], slotDP, ph, mb, step, c.bucketBytes(b.done))
		b.done++
	}
}

// optimizer appends the gradient-norm and Adam kernels, after the DP sync;
// with the distributed optimizer the updated parameters are all-gathered.
func (b *builder) optimizer(step int32) {
	c := b.sim.cfg
	if b.lastDP >= 0 {
		b.wait(b.lastDP)
	}
	base := c.OptimizerNs * int64(c.LayersPerStage)
	b.compute(kernelSpec{name: normKern, op: "aten::_foreach_norm", share: 0.25}, base, phaseOpt, -1, step)
	b.compute(kernelSpec{name: adamKern, op: "aten::_fused_adam_", share: 0.75}, base, phaseOpt, -1, step)
	if c.DistOptimizer && c.DP > 1 {
		bytes := c.GradBytesPerLayer * int64(c.LayersPerStage) / 2
		b.collective(model.OpAllGather, b.sim.dpOf[b.r], slotDP, phaseOpt, -1, step, bytes)
	}
	b.lastDP, b.done = -1, 0
}
