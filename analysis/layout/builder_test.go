package layout

import (
	"fmt"

	"github.com/tpptrace/tpptrace/model"
)

// layoutJob builds small hand-made traces: ranks on hosts, communicators
// with or without descriptions, and the kernels they run per step.
type layoutJob struct {
	tr    *model.Trace
	clock int64
}

// newLayoutJob makes ranks 0..n-1, perHost ranks per host, and steps
// ProfilerStep annotations on every rank.
func newLayoutJob(n, perHost, steps int) *layoutJob {
	j := &layoutJob{tr: &model.Trace{}}
	for r := int32(0); r < int32(n); r++ {
		host := fmt.Sprintf("node%d", int(r)/perHost)
		j.tr.AddRank(model.Rank{Rank: r, Host: host, LocalGPU: r % int32(perHost), Coord: model.UnknownCoord, Source: -1})
		for s := range steps {
			j.tr.AddEvent(model.NewEvent(r, model.KindAnnotation, j.tr.Names.Intern(fmt.Sprintf("ProfilerStep#%d", s)), int64(s)*1e9, 1e9-1))
		}
	}
	return j
}

func (j *layoutJob) comm(id, desc string, members []int32) int32 {
	return j.tr.AddComm(model.Communicator{ID: id, Desc: desc, Members: members})
}

// kernels adds k kernels of op on every member of comm (comm -1: on the
// given ranks, with no communicator), with peer for p2p ops.
func (j *layoutJob) kernels(comm int32, op model.Op, k int, ranks []int32, peer func(int32) int32) {
	if comm >= 0 {
		ranks = j.tr.Comms[comm].Members
	}
	for range k {
		j.clock += 1000
		for _, r := range ranks {
			c := model.NewCollective(op)
			c.Comm = comm
			if peer != nil {
				c.Peer = peer(r)
			}
			e := model.NewEvent(r, model.KindComm, j.tr.Names.Intern("ncclDevKernel_"+op.String()), j.clock, 500)
			e.Coll = j.tr.Colls.Append(c)
			j.tr.AddEvent(e)
		}
	}
}

// p2p adds one send_recv kernel with no peer and no communicator.
func (j *layoutJob) p2p(r int32, start, end int64) {
	e := model.NewEvent(r, model.KindComm, j.tr.Names.Intern("ncclDevKernel_SendRecv"), start, end-start)
	e.Coll = j.tr.Colls.Append(model.NewCollective(model.OpSendRecv))
	j.tr.AddEvent(e)
}

func (j *layoutJob) done() *model.Trace {
	j.tr.Events.Sort()
	return j.tr
}

// megatron lists the groups of axis a in a TP·PP·DP job under Megatron's
// order (rank = tp + TP·(dp + DP·pp)).
func megatron(tp, pp, dp int, a model.Axis) [][]int32 {
	size := map[model.Axis]int{model.AxisTP: tp, model.AxisPP: pp, model.AxisDP: dp}
	groups := map[[3]int][]int32{}
	var keys [][3]int
	for p := range pp {
		for d := range dp {
			for t := range tp {
				c := [3]int{t, p, d}
				r := int32(t + tp*(d+dp*p))
				k := c
				k[map[model.Axis]int{model.AxisTP: 0, model.AxisPP: 1, model.AxisDP: 2}[a]] = -1
				if groups[k] == nil {
					keys = append(keys, k)
				}
				groups[k] = append(groups[k], r)
			}
		}
	}
	out := make([][]int32, 0, len(keys))
	for _, k := range keys {
		if len(groups[k]) == size[a] {
			out = append(out, groups[k])
		}
	}
	return out
}

func allRanks(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}
