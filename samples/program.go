package samples

import (
	"math/rand/v2"

	"github.com/tpptrace/tpptrace/model"
)

// slot is a rank's GPU stream role.
type slot uint8

const (
	slotCompute slot = iota
	slotTP
	slotRecvPrev // recv from the previous stage
	slotSendNext // send to the next stage
	slotRecvNext // recv from the next stage
	slotSendPrev // send to the previous stage
	slotDP
	slotCP
	slotEP
	nSlots
)

// streamIDs are the CUDA stream ids of the slots: the default compute stream
// 7 and one NCCL stream per communicator (and per p2p peer and direction).
var streamIDs = [nSlots]int64{7, 20, 24, 28, 32, 36, 40, 44, 48}

// opClass is what an op is, for truth and emission.
type opClass uint8

const (
	classCompute opClass = iota
	classTP
	classPP
	classDP
	classCP
	classEP
	classSync // the host synchronisation ending a step
)

// phase groups ops under a CPU annotation.
type phase uint8

const (
	phaseFwd phase = iota
	phaseBwd
	phaseDP
	phaseOpt
	phaseSync
)

// op is one GPU operation of a rank's program, in launch order.
type op struct {
	class  opClass
	slot   slot
	phase  phase
	kernel string
	cpuOp  string
	dur    int64 // compute kernels only
	deps   [2]int32
	inst   int32 // collective instance, -1 for compute
	seq    int64 // sequence number in the instance key
	coll   model.Op
	peer   int32
	micro  int32
	chunk  int32 // model chunk of an interleaved pipeline, -1 outside a pass
	step   int32
}

// builder appends one rank's program.
type builder struct {
	sim    *sim
	r      int
	stage  int
	ops    []op
	rng    *rand.Rand
	last   int32    // last compute op, -1
	waits  [2]int32 // ops the next compute kernel must wait for
	scale  float64  // compute multiplier of this rank
	seqs   map[instKey]int64
	lastDP int32 // last DP op of the step, -1
	done   int   // DP buckets launched this step
	chunk  int32 // model chunk of the pass being built, -1 outside passes
}

func newBuilder(s *sim, r int) *builder {
	cfg := s.cfg
	_, pp, _ := cfg.Coord(r)
	scale := cfg.stageScale(pp)
	if r == cfg.SlowRank {
		scale *= cfg.SlowFactor
	}
	seed := uint64(cfg.Seed)*1_000_003 + uint64(r)
	return &builder{sim: s, r: r, stage: pp, rng: rand.New(rand.NewPCG(seed, 0x5eed)), last: -1, waits: [2]int32{-1, -1}, scale: scale,
		seqs: map[instKey]int64{}, lastDP: -1, chunk: -1}
}

// add appends o and returns its index.
func (b *builder) add(o op) int32 {
	o.chunk = b.chunk
	b.ops = append(b.ops, o)
	return int32(len(b.ops) - 1)
}

// compute appends a compute kernel taking share of base ns.
func (b *builder) compute(k kernelSpec, base int64, ph phase, micro, step int32) {
	d := b.sim.jitter(b.rng, float64(base)*k.share*b.scale)
	i := b.add(op{class: classCompute, slot: slotCompute, phase: ph, kernel: k.name, cpuOp: k.op, dur: d,
		deps: [2]int32{b.waits[0], b.waits[1]}, inst: -1, peer: -1, micro: micro, step: step})
	b.last, b.waits = i, [2]int32{-1, -1}
}

// wait makes the next compute kernel wait for op i.
func (b *builder) wait(i int32) {
	if b.waits[0] < 0 {
		b.waits[0] = i
		return
	}
	b.waits[1] = i
}
