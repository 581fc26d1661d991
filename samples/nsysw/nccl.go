package nsysw

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// ncclDomain is the NVTX domain id the writer gives NCCL.
const ncclDomain = 1

var apiNames = map[model.Op]string{
	model.OpAllReduce: "ncclAllReduce", model.OpAllGather: "ncclAllGather", model.OpReduceScatter: "ncclReduceScatter",
	model.OpBroadcast: "ncclBroadcast", model.OpReduce: "ncclReduce", model.OpAllToAll: "ncclAlltoAll",
	model.OpSend: "ncclSend", model.OpRecv: "ncclRecv", model.OpSendRecv: "ncclSend",
}

// CommHash is the NCCL communicator id the writer gives a communicator.
func CommHash(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64() >> 1 // keep it below 2^63 so every JSON reader takes it
}

// ncclRange writes the NCCL API range around a kernel's launch, with the
// payload NCCL records.
func (w *writer) ncclRange(e model.Event, launch model.Event) error {
	c := w.tr.Colls.At(int(e.Coll))
	api, ok := apiNames[c.Op]
	if !ok {
		api = "ncclAllReduce"
	}
	fields := []string{}
	if c.Comm >= 0 && !w.opts.NoCommID {
		fields = append(fields, fmt.Sprintf(`"NCCL communicator ID":%d`, CommHash(w.tr.Comms[c.Comm].ID)))
	}
	if c.Bytes >= 0 {
		fields = append(fields, fmt.Sprintf(`"Message size [bytes]":%d`, c.Bytes))
	}
	if p := w.commRank(c.Comm, c.Peer); c.Op.PointToPoint() && p >= 0 {
		fields = append(fields, fmt.Sprintf(`"Peer rank":%d`, p))
	}
	end := launch.End() + usec
	return w.nvtx(launch.Start-usec, &end, nvtxPushPop, w.gtid(launch.Rank, launch.Stream), ncclDomain, api, "{"+strings.Join(fields, ",")+"}")
}

// commRank is global rank g's rank inside communicator c, or -1.
func (w *writer) commRank(c int32, g int32) int32 {
	if c < 0 || g < 0 {
		return -1
	}
	return int32(slices.Index(w.tr.Comms[c].Members, g))
}

// writeInits writes the creation of every communicator of rank r: the
// world communicator (synthesized when the trace has none) and the others,
// as ncclCommInitRank ranges, or in DialectReal as ncclCommInitRankConfig
// of the world and ncclCommSplit of it.
func (w *writer) writeInits(r int32) error {
	if w.opts.NoNVTX || w.opts.NoCommInit {
		return nil
	}
	world := w.worldComm()
	comms := slices.Clone(w.tr.Comms)
	if !slices.ContainsFunc(comms, func(c model.Communicator) bool { return len(c.Members) == len(world.Members) }) {
		comms = append([]model.Communicator{world}, comms...)
	}
	for _, m := range w.opts.IdleComms {
		comms = append(comms, model.Communicator{ID: fmt.Sprintf("idle:%v", m), Members: m})
	}
	t := w.base + 100*usec
	for _, c := range comms {
		if err := w.writeInit(r, c, world, t); err != nil {
			return err
		}
		t += 10 * usec
	}
	return nil
}

// worldComm is the trace's communicator of every rank, else a synthesized one.
func (w *writer) worldComm() model.Communicator {
	for _, c := range w.tr.Comms {
		if len(c.Members) == len(w.tr.Ranks) {
			return c
		}
	}
	world := make([]int32, len(w.tr.Ranks))
	for i, x := range w.tr.Ranks {
		world[i] = x.Rank
	}
	return model.Communicator{ID: "world", Members: world}
}

func (w *writer) writeInit(r int32, c, world model.Communicator, t int64) error {
	idx := slices.Index(c.Members, r)
	if idx < 0 {
		return nil
	}
	dev := int32(0)
	if i := w.tr.FindRank(r); i >= 0 {
		dev = max(w.tr.Ranks[i].LocalGPU, 0)
	}
	api, p := "ncclCommInitRank", fmt.Sprintf(`{"NCCL communicator ID":%d,"No. of ranks":%d,"Rank":%d,"CUDA device":%d}`, CommHash(c.ID), len(c.Members), idx, dev)
	switch {
	case w.opts.NoCommID:
		p = fmt.Sprintf(`{"No. of ranks":%d,"Rank":%d,"CUDA device":%d}`, len(c.Members), idx, dev)
	case w.opts.Dialect == DialectReal && c.ID == world.ID:
		api = "ncclCommInitRankConfig"
	case w.opts.Dialect == DialectReal:
		api = "ncclCommSplit"
		p = fmt.Sprintf(`{"NCCL communicator ID":%d,"Parent NCCL communicator ID":%d,"No. of ranks":%d,"Rank":%d,"CUDA device":%d,"Color":%d,"Key":%d}`,
			CommHash(c.ID), CommHash(world.ID), len(c.Members), idx, dev, splitColor(c.Members), r)
	}
	end := t + 5*usec
	return w.nvtx(t, &end, nvtxPushPop, w.gtid(r, -1), ncclDomain, api, p)
}

// splitColor is the colour every member of a group passes to ncclCommSplit:
// a non-negative hash of the member list, as PyTorch derives it.
func splitColor(members []int32) int32 {
	h := fnv.New32a()
	for _, m := range members {
		fmt.Fprintf(h, "%d,", m)
	}
	return int32(h.Sum32() >> 1)
}
