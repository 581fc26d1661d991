package kinetow

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// args writes the args object's members of row i.
func (rw *rankWriter) args(i int) {
	ev := &rw.t.Events
	b := rw.buf
	switch k := ev.Kind[i]; {
	case k == model.KindRuntime:
		b = fmt.Appendf(b, `"External id": %d, "cbid": %d, "correlation": %d`, rw.l.ext[i-rw.lo], cbid(rw.t.Name(i)), max(ev.Corr[i], 0))
	case k.OnGPU():
		b = rw.kernelArgs(b, i)
	default:
		b = fmt.Appendf(b, `"External id": %d, "Ev Idx": %d`, rw.l.ext[i-rw.lo], rw.l.ext[i-rw.lo]-1)
		if c, ok := rw.l.rpcColl[i]; ok {
			b = rw.commArgs(append(b, ", "...), c)
			b = fmt.Appendf(b, `, "Rank": %d`, rw.rank.Rank)
		}
	}
	rw.buf = b
}

// cbid is CUPTI's callback id of a runtime call.
func cbid(name string) int {
	switch name {
	case "cudaLaunchKernelExC":
		return 430
	case "cudaDeviceSynchronize":
		return 165
	}
	return 211
}

func (rw *rankWriter) kernelArgs(b []byte, i int) []byte {
	ev := &rw.t.Events
	s := rw.t.Streams[ev.Stream[i]]
	grid, block, regs, smem := "[132, 1, 1]", "[384, 1, 1]", 168, 213248
	if ev.Kind[i] == model.KindComm {
		grid, block, regs, smem = "[2, 1, 1]", "[640, 1, 1]", 96, 87568
	}
	b = fmt.Appendf(b, `"External id": %d, "queued": 0, "device": %d, "context": 1, "stream": %d, "correlation": %d, `,
		rw.l.kernelExt[ev.Corr[i]], s.Device, s.ID, ev.Corr[i])
	b = fmt.Appendf(b, `"registers per thread": %d, "shared memory": %d, "blocks per SM": 1, "warps per SM": 12, "grid": %s, "block": %s, "est. achieved occupancy %%": 0`,
		regs, smem, grid, block)
	if c := ev.Coll[i]; c >= 0 && rw.t.Colls.Comm[c] >= 0 {
		b = rw.commArgs(append(b, ", "...), c)
	}
	return b
}

// collNames are c10d's "Collective name" values.
var collNames = map[model.Op]string{
	model.OpAllReduce: "allreduce", model.OpReduceScatter: "_reduce_scatter_base", model.OpAllGather: "_allgather_base",
	model.OpSend: "send", model.OpRecv: "recv", model.OpBroadcast: "broadcast", model.OpAllToAll: "all_to_allv",
}

// commArgs writes the NCCL metadata of collective c (saveNcclMeta's keys).
func (rw *rankWriter) commArgs(b []byte, c int32) []byte {
	x := rw.t.Colls.At(int(c))
	comm := &rw.t.Comms[x.Comm]
	in := max(x.Bytes, 0) / 2
	out := in
	switch x.Op {
	case model.OpReduceScatter:
		out = in / int64(max(x.GroupSize, 1))
	case model.OpAllGather:
		out = in * int64(max(x.GroupSize, 1))
	}
	b = fmt.Appendf(b, `"Collective name": %q, "In msg nelems": %d, "Out msg nelems": %d, "Group size": %d, "dtype": %q, `,
		collNames[x.Op], in, out, x.GroupSize, rw.t.Names.Get(x.DType))
	b = fmt.Appendf(b, `"In split size": "[]", "Out split size": "[]", "Process Group Name": %q, "Process Group Description": %q, "Process Group Ranks": %q`,
		comm.Name, comm.Desc, ranksString(comm.Members))
	if x.Seq >= 0 { // unknown sequence numbers and peers are left out, as older PyTorch does
		b = fmt.Appendf(b, `, "Seq": %d`, x.Seq)
	}
	switch {
	case x.Peer < 0:
	case x.Op == model.OpSend:
		b = fmt.Appendf(b, `, "Dst Rank": %d`, x.Peer)
	case x.Op == model.OpRecv:
		b = fmt.Appendf(b, `, "Src Rank": %d`, x.Peer)
	}
	return b
}

// ranksString is PyTorch's "[0, 1, 2]" form.
func ranksString(m []int32) string {
	s := make([]string, len(m))
	for i, r := range m {
		s[i] = strconv.Itoa(int(r))
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// metadata writes the "M" events naming the process, the GPU and the streams,
// and the profiler's span, then flushes.
func (rw *rankWriter) metadata() {
	r := rw.rank
	meta := func(name string, pid, tid int64, key, val string) {
		rw.sep()
		rw.buf = fmt.Appendf(rw.buf, `  {"name": %q, "ph": "M", "ts": 0.000, "pid": %d, "tid": %d, "args": {%q: %s}}`, name, pid, tid, key, val)
	}
	meta("process_name", r.PID, 0, "name", `"python3.10"`)
	meta("process_labels", r.PID, 0, "labels", `"CPU"`)
	meta("process_name", int64(r.LocalGPU), 0, "name", `"python3.10"`)
	meta("process_labels", int64(r.LocalGPU), 0, "labels", fmt.Sprintf(`"GPU %d"`, r.LocalGPU))
	for _, s := range rw.t.Streams {
		if s.Rank != r.Rank {
			continue
		}
		if s.GPU {
			meta("thread_name", int64(s.Device), s.ID, "name", fmt.Sprintf(`"stream %d "`, s.ID))
		} else {
			meta("thread_name", r.PID, s.ID, "name", strconv.Quote(s.Name))
		}
	}
	rw.span()
	rw.flush()
}

// span writes the "PyTorch Profiler (0)" Trace event over the rank's events.
func (rw *rankWriter) span() {
	if rw.hi <= rw.lo {
		return
	}
	ev := &rw.t.Events
	lo, hi := ev.Start[rw.lo], ev.Start[rw.lo]
	for i := rw.lo; i < rw.hi; i++ {
		hi = max(hi, ev.Start[i]+ev.Dur[i])
	}
	rw.sep()
	rw.buf = append(rw.buf, `  {"ph": "X", "cat": "Trace", "ts": `...)
	rw.buf = appendTs(rw.buf, lo)
	rw.buf = appendTs(append(rw.buf, `, "dur": `...), hi-lo)
	rw.buf = append(rw.buf, `, "pid": "Spans", "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)", "args": {"Op count": 0}}`...)
}
