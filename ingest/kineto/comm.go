package kineto

import (
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// commInfo is what is known of one communication call, from a kernel's own
// args or from the CPU op or annotation that launched it.
type commInfo struct {
	op        model.Op // OpNone when unknown
	nelems    int64    // elements, -1 when unknown
	dtype     string
	groupSize int64 // -1 when unknown
	pgName    string
	pgDesc    string
	ranks     []int32 // process-group ranks, nil when unknown
	seq       int64   // -1 when unknown
	peer      int64   // global peer rank of a send/recv, -1 when unknown
}

func newCommInfo() commInfo { return commInfo{nelems: -1, groupSize: -1, seq: -1, peer: -1} }

// fill sets the fields of c that are still unknown from o.
func (c *commInfo) fill(o *commInfo) {
	if c.op == model.OpNone {
		c.op = o.op
	}
	c.nelems = orInt(c.nelems, o.nelems)
	c.groupSize = orInt(c.groupSize, o.groupSize)
	c.seq = orInt(c.seq, o.seq)
	c.peer = orInt(c.peer, o.peer)
	c.dtype = cmpOr(c.dtype, o.dtype)
	if c.pgName == "" {
		c.pgName, c.pgDesc, c.ranks = o.pgName, cmpOr(c.pgDesc, o.pgDesc), o.ranks
	}
}

func orInt(a, b int64) int64 {
	if a >= 0 {
		return a
	}
	return b
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// isCommKernel reports whether a GPU kernel is NCCL/RCCL communication.
func isCommKernel(name string) bool {
	if len(name) < 4 {
		return false
	}
	p := name[:4]
	if strings.EqualFold(p, "nccl") || strings.EqualFold(p, "rccl") {
		return true
	}
	return strings.Contains(name, "ncclKernel") || strings.Contains(name, "ncclDevKernel")
}

// kernelOp reads the collective from an NCCL kernel name, old and new:
// ncclKernel_AllReduce_RING_LL_Sum_float, ncclDevKernel_SendRecv,
// ncclAllReduceRingLLKernel_sum_f32, ncclDevKernel_Generic.
func kernelOp(name string) model.Op {
	if i := strings.Index(name, "ccl"); i >= 0 {
		name = name[i+3:]
	}
	name = strings.TrimPrefix(strings.TrimPrefix(name, "DevKernel_"), "Kernel_")
	return kernelOps.match(name, model.OpOther)
}

// opPrefixes maps name prefixes to ops, tried in order.
type opPrefixes []struct {
	prefix string
	op     model.Op
}

// match is the op of the first prefix s starts with, or otherwise.
func (ps opPrefixes) match(s string, otherwise model.Op) model.Op {
	for _, k := range ps {
		if strings.HasPrefix(s, k.prefix) {
			return k.op
		}
	}
	return otherwise
}

var kernelOps = opPrefixes{
	{"AllReduce", model.OpAllReduce}, {"AllGather", model.OpAllGather},
	{"ReduceScatter", model.OpReduceScatter}, {"Broadcast", model.OpBroadcast},
	{"Reduce", model.OpReduce}, {"SendRecv", model.OpSendRecv}, {"AllToAll", model.OpAllToAll},
	{"Send", model.OpSend}, {"Recv", model.OpRecv},
}

// collectiveOp maps a c10d "Collective name" or an nccl:* annotation title
// (without the prefix) to an op: allreduce, _allgather_base, all_to_allv,
// reduce_scatter_tensor_coalesced, send, recv, barrier. Names that do not say
// which op ran (coalesced, gather, scatter) give OpNone.
func collectiveOp(s string) model.Op {
	s = strings.ToLower(strings.ReplaceAll(strings.Trim(s, "\"' "), "_", ""))
	return collectiveOps.match(s, model.OpNone)
}

var collectiveOps = opPrefixes{
	{"allreduce", model.OpAllReduce}, {"allgather", model.OpAllGather},
	{"reducescatter", model.OpReduceScatter}, {"alltoall", model.OpAllToAll},
	{"broadcast", model.OpBroadcast}, {"reduce", model.OpReduce},
	{"send", model.OpSend}, {"recv", model.OpRecv}, {"barrier", model.OpBarrier},
}

// annotationInfo reads an nccl:* annotation title: "nccl:all_reduce",
// "nccl:send 2->3" (peer 3), "nccl:recv 3<-2" (peer 2).
func annotationInfo(name string) commInfo {
	c := newCommInfo()
	title, peers, _ := strings.Cut(strings.TrimPrefix(name, "nccl:"), " ")
	c.op = collectiveOp(title)
	sep := map[model.Op]string{model.OpSend: "->", model.OpRecv: "<-"}[c.op]
	if sep == "" {
		return c
	}
	if _, p, ok := strings.Cut(peers, sep); ok {
		if n, ok := parseInt([]byte(strings.TrimSpace(p))); ok {
			c.peer = n
		}
	}
	return c
}

// dtypeSize is the size in bytes of a PyTorch or NCCL element type, 0 when
// unknown.
func dtypeSize(t string) int64 {
	return dtypeSizes[strings.ToLower(strings.Trim(t, "\"' "))]
}

var dtypeSizes = map[string]int64{
	"float": 4, "float32": 4, "f32": 4, "double": 8, "float64": 8, "f64": 8,
	"half": 2, "float16": 2, "f16": 2, "bfloat16": 2, "bf16": 2,
	"int": 4, "int32": 4, "i32": 4, "uint32": 4, "u32": 4, "long": 8, "int64": 8, "i64": 8, "uint64": 8, "u64": 8,
	"short": 2, "int16": 2, "byte": 1, "uint8": 1, "u8": 1, "char": 1, "int8": 1, "i8": 1, "bool": 1,
	"float8_e4m3fn": 1, "float8_e5m2": 1, "float8_e4m3fnuz": 1, "float8_e5m2fnuz": 1, "f8e4m3": 1, "f8e5m2": 1,
	"complexfloat": 8, "complexdouble": 16, "complexhalf": 4,
	// C++ spellings found in the "Input type" of old traces
	"long int": 8, "long long": 8, "int64_t": 8, "unsigned int": 4, "signed char": 1, "unsigned char": 1,
	"c10::half": 2, "c10::bfloat16": 2, "c10::float8_e4m3fn": 1, "c10::float8_e5m2": 1, "short int": 2,
}

// parseRanks reads a process-group rank list: "[0, 1]", [0, 1], or "0,1".
// A truncated list ("[0, 1, ...]") gives nil.
func parseRanks(s string) []int32 {
	s = strings.Trim(s, "\"[] \t")
	if s == "" || strings.Contains(s, "...") {
		return nil
	}
	var out []int32
	for _, f := range strings.Split(s, ",") {
		n, ok := parseInt([]byte(strings.TrimSpace(f)))
		if !ok || n < 0 || n > 1<<30 {
			return nil
		}
		out = append(out, int32(n))
	}
	return out
}
