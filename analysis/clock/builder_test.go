package clock

import (
	"math/rand/v2"

	"github.com/tpptrace/tpptrace/model"
)

// job builds small hand-made traces: ranks on hosts with planted clock
// offsets, and collectives whose member kernels end together on the true
// clock.
type job struct {
	tr     *model.Trace
	offset map[int32]int64 // planted: rank's clock − rank 0's clock
	rng    *rand.Rand
}

func newJob(ranks int, offsetOf func(r int32) int64) *job {
	j := &job{tr: &model.Trace{}, offset: map[int32]int64{}, rng: rand.New(rand.NewPCG(1, 2))}
	for r := int32(0); r < int32(ranks); r++ {
		j.tr.AddRank(model.Rank{Rank: r, LocalGPU: r, Coord: model.UnknownCoord, Source: -1})
		j.offset[r] = offsetOf(r) - offsetOf(0)
	}
	return j
}

func (j *job) comm(id string, members ...int32) int32 {
	return j.tr.AddComm(model.Communicator{ID: id, Members: members})
}

// kernel adds one member kernel [start, end) given on the true clock.
func (j *job) kernel(rank, comm int32, op model.Op, seq int64, peer int32, start, end int64) {
	c := model.NewCollective(op)
	c.Comm, c.Seq, c.Peer = comm, seq, peer
	ci := j.tr.Colls.Append(c)
	e := model.NewEvent(rank, model.KindComm, j.tr.Names.Intern("ncclDevKernel_"+op.String()), start+j.offset[rank], end-start)
	e.Coll = ci
	j.tr.AddEvent(e)
}

// collective adds an instance whose members become ready at ready[i] (true
// clock) and all end transfer ns after the last is ready, with ±jitter.
func (j *job) collective(comm int32, op model.Op, seq int64, ready []int64, transfer, jitter int64) {
	members := j.tr.Comms[comm].Members
	end := ready[0]
	for _, r := range ready {
		end = max(end, r)
	}
	end += transfer
	for i, m := range members {
		jit := int64(0)
		if jitter > 0 {
			jit = j.rng.Int64N(2*jitter+1) - jitter
		}
		j.kernel(m, comm, op, seq, -1, ready[i], end+jit)
	}
}

func (j *job) done() *model.Trace {
	j.tr.Events.Sort()
	return j.tr
}
