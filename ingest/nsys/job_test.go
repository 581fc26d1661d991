package nsys

import (
	"fmt"

	"github.com/tpptrace/tpptrace/model"
)

// tinyJob builds a 4-rank job by hand: TP=2 × PP=2 on two hosts (host 1's
// clock 5 ms ahead), two steps, compute kernels, a TP all-reduce per step
// and a PP send/recv per step. Some kernels have a launch call in the
// model, the others do not.
func tinyJob() *model.Trace {
	tr := &model.Trace{}
	comms := []model.Communicator{{ID: "tp0", Members: []int32{0, 1}}, {ID: "tp1", Members: []int32{2, 3}},
		{ID: "pp0", Members: []int32{0, 2}}, {ID: "pp1", Members: []int32{1, 3}}}
	for _, c := range comms {
		tr.AddComm(c)
	}
	for r := int32(0); r < 4; r++ {
		tr.AddRank(model.Rank{Rank: r, Host: fmt.Sprintf("node%d", r/2), PID: 4000 + int64(r), LocalGPU: r % 2, Coord: model.UnknownCoord, Source: -1, ClockBase: 1_700_000_000_000_000_000})
		addRankEvents(tr, r)
	}
	tr.Events.Sort()
	return tr
}

func addRankEvents(tr *model.Trace, r int32) {
	off := int64(r/2) * 5_000_000
	compute := tr.AddStream(model.Stream{Rank: r, GPU: true, ID: 7, Device: r % 2, Name: "stream 7"})
	comm := tr.AddStream(model.Stream{Rank: r, GPU: true, ID: 13, Device: r % 2, Name: "stream 13"})
	thread := tr.AddStream(model.Stream{Rank: r, ID: 4000 + int64(r), Device: -1, Name: "main"})
	for step := int64(0); step < 2; step++ {
		t0 := 1_000_000_000 + off + step*10_000_000
		ann := model.NewEvent(r, model.KindAnnotation, tr.Names.Intern(fmt.Sprintf("ProfilerStep#%d", step+1)), t0, 9_000_000)
		ann.Stream = thread
		tr.AddEvent(ann)
		k := model.NewEvent(r, model.KindCompute, tr.Names.Intern("void gemm_kernel<float>(float*, int)"), t0+100_000, 3_000_000+int64(r)*1000)
		k.Stream, k.Corr = compute, 100+step*10
		tr.AddEvent(k)
		l := model.NewEvent(r, model.KindRuntime, tr.Names.Intern("cudaLaunchKernel"), t0+50_000, 5_000)
		l.Stream, l.Corr = thread, 100+step*10
		tr.AddEvent(l)
		addComm(tr, r, comm, model.OpAllReduce, int32(r/2), t0+3_200_000, 1<<20)
		pp := model.OpSend
		if r >= 2 {
			pp = model.OpRecv
		}
		addComm(tr, r, comm, pp, 2+r%2, t0+4_000_000, 1<<16)
		m := model.NewEvent(r, model.KindMemcpy, tr.Names.Intern("Memcpy HtoD"), t0+5_000_000, 20_000)
		m.Stream = compute
		tr.AddEvent(m)
	}
}

func addComm(tr *model.Trace, r int32, stream int32, op model.Op, comm int32, start, bytes int64) {
	c := model.NewCollective(op)
	c.Comm, c.Bytes = comm, bytes
	names := map[model.Op]string{model.OpAllReduce: "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
		model.OpSend: "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", model.OpRecv: "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"}
	if op.PointToPoint() {
		m := tr.Comms[comm].Members
		c.Peer = m[0] + m[1] - r
	}
	e := model.NewEvent(r, model.KindComm, tr.Names.Intern(names[op]), start, 400_000)
	e.Stream, e.Coll = stream, tr.Colls.Append(c)
	tr.AddEvent(e)
}
