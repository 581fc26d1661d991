package samples

import "github.com/tpptrace/tpptrace/ingest/model"

// microOrder returns the schedule of one step on a stage as a list of
// (forward?, microbatch): GPipe runs every forward then every backward; 1F1B
// runs p−s−1 warm-up forwards, then alternates one forward and one backward,
// then drains the remaining backwards.
func microOrder(schedule string, p, s, m int) (fwd []bool, mb []int) {
	push := func(f bool, i int) { fwd, mb = append(fwd, f), append(mb, i) }
	if schedule == ScheduleGPipe {
		for i := range m {
			push(true, i)
		}
		for i := range m {
			push(false, i)
		}
		return fwd, mb
	}
	w := min(p-s-1, m)
	for i := range w {
		push(true, i)
	}
	for i := range m - w {
		push(true, w+i)
		push(false, i)
	}
	for i := m - w; i < m; i++ {
		push(false, i)
	}
	return fwd, mb
}

// buildStep appends one step of rank b.r's program.
func (b *builder) buildStep(step int32) {
	c := b.sim.cfg
	fwd, mb := microOrder(c.Schedule, c.PP, b.stage, c.Microbatches)
	for i := range fwd {
		if fwd[i] {
			b.forward(int32(mb[i]), step)
		} else {
			b.backward(int32(mb[i]), step, mb[i] == c.Microbatches-1)
		}
	}
	if !c.DPOverlap {
		b.dpBuckets(0, c.DPBuckets, step, phaseDP)
	}
	b.optimizer(step)
	b.add(op{class: classSync, slot: slotCompute, phase: phaseSync, kernel: syncName, inst: -1, peer: -1, micro: -1, step: step,
		deps: [2]int32{-1, -1}})
}

func (b *builder) forward(mb, step int32) {
	c := b.sim.cfg
	if b.stage > 0 {
		b.wait(b.p2p(model.OpRecv, b.stage-1, slotRecvPrev, phaseFwd, mb, step))
	}
	for range c.LayersPerStage {
		b.layer(fwdLayer, c.FwdLayerNs, phaseFwd, mb, step)
	}
	if b.stage == c.PP-1 {
		b.compute(kernelSpec{lossFwd, "aten::_log_softmax", 1, false}, c.LossNs, phaseFwd, mb, step)
		return
	}
	b.p2p(model.OpSend, b.stage+1, slotSendNext, phaseFwd, mb, step)
}

func (b *builder) backward(mb, step int32, last bool) {
	c := b.sim.cfg
	if b.stage < c.PP-1 {
		b.wait(b.p2p(model.OpRecv, b.stage+1, slotRecvNext, phaseBwd, mb, step))
	}
	bwd := int64(float64(c.FwdLayerNs) * c.BwdRatio)
	per := max(1, c.LayersPerStage/c.DPBuckets)
	for l := range c.LayersPerStage {
		b.layer(bwdLayer, bwd, phaseBwd, mb, step)
		if last && c.DPOverlap && ((l+1)%per == 0 || l == c.LayersPerStage-1) {
			b.dpBuckets(b.bucketsDone(), 1, step, phaseBwd)
		}
	}
	if b.stage > 0 {
		b.p2p(model.OpSend, b.stage-1, slotSendPrev, phaseBwd, mb, step)
	}
}

// layer appends one layer's kernels and TP all-reduces.
func (b *builder) layer(ks []kernelSpec, base int64, ph phase, mb, step int32) {
	for _, k := range ks {
		b.compute(k, base, ph, mb, step)
		if k.arAfter && b.sim.cfg.TP > 1 {
			b.wait(b.collective(model.OpAllReduce, b.sim.tpOf[b.r], slotTP, ph, mb, step, b.sim.cfg.ActivationBytes))
		}
	}
}
