package samples

import "github.com/tpptrace/tpptrace/model"

// pass is one forward or backward of one microbatch and model chunk.
type pass struct {
	fwd       bool
	mb, chunk int
}

// microOrder returns the schedule of one step on stage s: GPipe runs every
// forward then every backward; 1F1B runs p−s−1 warm-up forwards, then
// alternates one forward and one backward, then drains the remaining
// backwards; interleaved 1F1B is Megatron's virtual-pipeline order.
func microOrder(c *Config, s int) []pass {
	p, m := c.PP, c.Microbatches
	if c.Schedule == ScheduleInterleaved {
		return interleavedOrder(p, c.chunks(), m, s)
	}
	var out []pass
	if c.Schedule == ScheduleGPipe {
		for i := range m {
			out = append(out, pass{true, i, 0})
		}
		for i := range m {
			out = append(out, pass{false, i, 0})
		}
		return out
	}
	return warmSteadyCool(min(p-s-1, m), m, func(k int, fwd bool) pass { return pass{fwd, k, 0} })
}

// warmSteadyCool lays out n virtual microbatches: warm forwards, then one
// forward and one backward alternately, then the remaining backwards; at
// maps a virtual microbatch to its pass.
func warmSteadyCool(warm, n int, at func(k int, fwd bool) pass) []pass {
	var out []pass
	for k := range warm {
		out = append(out, at(k, true))
	}
	for k := range n - warm {
		out = append(out, at(warm+k, true), at(k, false))
	}
	for k := n - warm; k < n; k++ {
		out = append(out, at(k, false))
	}
	return out
}

// interleavedOrder is Megatron-LM's forward_backward_pipelining_with_interleaving
// on stage s: (p−s−1)·2 + (v−1)·p warm-up forwards (at most v·m); virtual
// microbatch k runs chunk (k mod p·v) div p (reversed for backwards) of
// microbatch (k div p·v)·p + k mod p.
func interleavedOrder(p, v, m, s int) []pass {
	n := v * m
	warm := min((p-s-1)*2+(v-1)*p, n)
	return warmSteadyCool(warm, n, func(k int, fwd bool) pass {
		c := k % (p * v) / p
		if !fwd {
			c = v - 1 - c
		}
		return pass{fwd, k/(p*v)*p + k%p, c}
	})
}

// buildStep appends one step of rank b.r's program.
func (b *builder) buildStep(step int32) {
	c := b.sim.cfg
	for _, ps := range microOrder(c, b.stage) {
		if ps.fwd {
			b.forward(ps, step)
		} else {
			b.backward(ps, step, ps.mb == c.Microbatches-1 && ps.chunk == 0)
		}
	}
	if !c.DPOverlap {
		b.dpBuckets(c.DPBuckets, step, phaseDP, -1)
	}
	b.optimizer(step)
	b.add(op{class: classSync, slot: slotCompute, phase: phaseSync, kernel: syncName, inst: -1, peer: -1, micro: -1, step: step,
		deps: [2]int32{-1, -1}})
}

// forward runs model chunk ps.chunk·p+stage on microbatch ps.mb: it receives
// from the model chunk before it (the previous stage, or the last stage's
// previous chunk on stage 0) and sends to the one after it; the last model
// chunk computes the loss.
func (b *builder) forward(ps pass, step int32) {
	c := b.sim.cfg
	mb, ch := int32(ps.mb), int32(ps.chunk)
	b.enter(ch)
	defer b.enter(-1)
	if b.stage > 0 || ch > 0 {
		b.wait(b.p2p(model.OpRecv, b.prevStage(), slotRecvPrev, phaseFwd, mb, step))
	}
	for range c.LayersPerStage / c.chunks() {
		b.layer(fwdLayer, c.FwdLayerNs, phaseFwd, mb, step)
	}
	if b.stage == c.PP-1 && int(ch) == c.chunks()-1 {
		b.compute(kernelSpec{name: lossFwd, op: "aten::_log_softmax", share: 1}, c.LossNs, phaseFwd, mb, step)
		return
	}
	b.p2p(model.OpSend, b.nextStage(), slotSendNext, phaseFwd, mb, step)
}

// backward mirrors forward: the gradient comes from the next model chunk
// and goes to the previous one.
func (b *builder) backward(ps pass, step int32, last bool) {
	c := b.sim.cfg
	mb, ch := int32(ps.mb), int32(ps.chunk)
	b.enter(ch)
	defer b.enter(-1)
	if b.stage < c.PP-1 || int(ch) < c.chunks()-1 {
		b.wait(b.p2p(model.OpRecv, b.nextStage(), slotRecvNext, phaseBwd, mb, step))
	}
	bwd := int64(float64(c.FwdLayerNs) * c.BwdRatio)
	layers := c.LayersPerStage / c.chunks()
	per := max(1, layers/c.DPBuckets)
	for l := range layers {
		b.layer(bwdLayer, bwd, phaseBwd, mb, step)
		if last && c.DPOverlap && ((l+1)%per == 0 || l == layers-1) && b.done < c.DPBuckets {
			b.dpBuckets(1, step, phaseBwd, mb)
		}
	}
	if last && c.DPOverlap {
		b.dpBuckets(c.DPBuckets-b.done, step, phaseBwd, mb)
	}
	if b.stage > 0 || ch > 0 {
		b.p2p(model.OpSend, b.prevStage(), slotSendPrev, phaseBwd, mb, step)
	}
}

// enter tags the ops that follow with model chunk ch (interleaved
// pipelines only; -1 leaves them untagged).
func (b *builder) enter(ch int32) {
	b.chunk = -1
	if b.sim.cfg.chunks() > 1 {
		b.chunk = ch
	}
}

// prevStage and nextStage are the neighbours in the ring of model chunks.
func (b *builder) prevStage() int { return (b.stage + b.sim.cfg.PP - 1) % b.sim.cfg.PP }
func (b *builder) nextStage() int { return (b.stage + 1) % b.sim.cfg.PP }

// layer appends one layer's kernels and its TP, CP and EP collectives.
func (b *builder) layer(ks []kernelSpec, base int64, ph phase, mb, step int32) {
	for _, k := range ks {
		b.before(k, ph, mb, step)
		b.compute(k, base, ph, mb, step)
		b.after(k, ph, mb, step)
	}
}

// before appends the collectives a kernel waits for: with sequence
// parallelism the TP all-gather of a column-parallel input; with CP the
// all-gather of the K and V chunks before the forward attention; with EP
// the all-to-all before the expert MLP (the dispatch in the forward, the
// combine's backward in the backward).
func (b *builder) before(k kernelSpec, ph phase, mb, step int32) {
	c, s := b.sim.cfg, b.sim
	if k.before != blockNone && c.SeqParallel && c.TP > 1 {
		n := s.tpBytes(k.before, step, mb) / int64(c.TP)
		b.wait(b.collective(model.OpAllGather, s.tpOf[b.r], slotTP, ph, mb, step, n))
	}
	if k.name == attnFwd && s.cpOf != nil {
		b.wait(b.collective(model.OpAllGather, s.cpOf[b.r], slotCP, ph, mb, step, s.cpBytes(step, mb)))
	}
	if k.before == blockMLP && s.epOf != nil {
		b.wait(b.collective(model.OpAllToAll, s.epOf[b.r], slotEP, ph, mb, step, s.epBytes(step, mb)))
	}
}

// after appends the collectives that follow a kernel: the TP reduction of a
// row-parallel output or column-parallel input gradient; with CP the
// reduce-scatter of the K and V gradients after the attention backward;
// with EP the all-to-all after the expert MLP (the combine in the forward,
// the dispatch's backward in the backward).
func (b *builder) after(k kernelSpec, ph phase, mb, step int32) {
	c, s := b.sim.cfg, b.sim
	if k.after != blockNone && c.TP > 1 {
		o := model.OpAllReduce
		if c.SeqParallel {
			o = model.OpReduceScatter
		}
		b.wait(b.collective(o, s.tpOf[b.r], slotTP, ph, mb, step, s.tpBytes(k.after, step, mb)))
	}
	if k.name == attnBwd && s.cpOf != nil {
		b.wait(b.collective(model.OpReduceScatter, s.cpOf[b.r], slotCP, ph, mb, step, s.cpBytes(step, mb)))
	}
	if k.after == blockMLP && s.epOf != nil {
		b.wait(b.collective(model.OpAllToAll, s.epOf[b.r], slotEP, ph, mb, step, s.epBytes(step, mb)))
	}
}
