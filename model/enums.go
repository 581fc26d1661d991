package model

// Kind is what an event is.
type Kind uint8

// Event kinds.
const (
	KindUnknown       Kind = iota
	KindCompute            // a GPU kernel that is not communication
	KindComm               // a GPU communication kernel (NCCL, RCCL)
	KindMemcpy             // a GPU memory copy
	KindMemset             // a GPU memory set
	KindCPUOp              // a CPU operator (aten::mm, record_param_comms, ...)
	KindAnnotation         // a CPU range: user annotation, NVTX range, ProfilerStep#N
	KindGPUAnnotation      // an annotation projected onto a GPU stream
	KindRuntime            // a CUDA runtime or driver call (launches, syncs)
	kindCount
)

var kindNames = [...]string{"unknown", "compute", "comm", "memcpy", "memset", "cpu_op", "annotation", "gpu_annotation", "runtime"}

func (k Kind) String() string { return nameOf(kindNames[:], k, "unknown") }

// OnGPU reports whether events of this kind run on a GPU stream.
func (k Kind) OnGPU() bool {
	return k == KindCompute || k == KindComm || k == KindMemcpy || k == KindMemset || k == KindGPUAnnotation
}

// ParseKind is the inverse of Kind.String; unknown names give KindUnknown.
func ParseKind(s string) Kind {
	return parseName(kindNames[:], s, KindUnknown)
}

// Kinds lists every defined kind, KindUnknown first.
func Kinds() []Kind {
	ks := make([]Kind, kindCount)
	for i := range ks {
		ks[i] = Kind(i)
	}
	return ks
}

// Op is a collective or point-to-point operation.
type Op uint8

// Collective operations.
const (
	OpNone Op = iota
	OpAllReduce
	OpAllGather
	OpReduceScatter
	OpBroadcast
	OpReduce
	OpAllToAll
	OpSend
	OpRecv
	OpSendRecv // a point-to-point kernel whose direction is not known
	OpBarrier
	OpOther
	opCount
)

var opNames = [...]string{"none", "all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "all_to_all", "send", "recv", "send_recv", "barrier", "other"}

func (o Op) String() string { return nameOf(opNames[:], o, "other") }

// ParseOp is the inverse of Op.String; unknown names give OpOther, "" gives OpNone.
func ParseOp(s string) Op {
	if s == "" {
		return OpNone
	}
	return parseName(opNames[:], s, OpOther)
}

// PointToPoint reports whether the op is a send, a recv or an undirected p2p kernel.
func (o Op) PointToPoint() bool { return o == OpSend || o == OpRecv || o == OpSendRecv }

// Axis is the parallelism dimension a communicator belongs to.
type Axis uint8

// Parallel axes.
const (
	AxisUnknown Axis = iota
	AxisTP           // tensor parallel
	AxisPP           // pipeline parallel
	AxisDP           // data parallel
	AxisCP           // context parallel
	AxisEP           // expert parallel
	AxisWorld        // the default process group spanning every rank
	// AxisA2A is all-to-all traffic that is not expert parallelism: the
	// embedding exchange of a recommender (DLRM, TorchRec), run over the
	// world or a data-parallel group. Not a layout axis: it has no size
	// and no coordinate.
	AxisA2A
	axisCount
)

var axisNames = [...]string{"unknown", "TP", "PP", "DP", "CP", "EP", "WORLD", "A2A"}

func (a Axis) String() string { return nameOf(axisNames[:], a, "unknown") }

// ParseAxis is the inverse of Axis.String (case-sensitive); unknown names give AxisUnknown.
func ParseAxis(s string) Axis {
	return parseName(axisNames[:], s, AxisUnknown)
}

// AxisSource tells how a communicator's axis was decided.
type AxisSource uint8

// Axis sources, from most to least trusted.
const (
	AxisByUnknown     AxisSource = iota
	AxisByFlag                   // the user said so (--tp/--pp/--dp/--order)
	AxisByDescription            // a process-group name or description (TENSOR_MODEL_PARALLEL_GROUP)
	AxisByMembers                // the member set matches a layout's group
	AxisByTraffic                // the pattern of operations (p2p between stages, per-microbatch all-reduce)
	axisSourceCount
)

var axisSourceNames = [...]string{"unknown", "flag", "description", "members", "traffic"}

func (s AxisSource) String() string { return nameOf(axisSourceNames[:], s, "unknown") }

// ParseAxisSource is the inverse of AxisSource.String.
func ParseAxisSource(s string) AxisSource {
	return parseName(axisSourceNames[:], s, AxisByUnknown)
}

// nameOf is names[e], or unknown past the end of names.
func nameOf[E ~uint8](names []string, e E, unknown string) string {
	if int(e) < len(names) {
		return names[e]
	}
	return unknown
}

// parseName is the value whose name is s, or unknown when none is.
func parseName[E ~uint8](names []string, s string, unknown E) E {
	for i, n := range names {
		if n == s {
			return E(i)
		}
	}
	return unknown
}
