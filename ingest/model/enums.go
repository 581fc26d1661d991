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

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// OnGPU reports whether events of this kind run on a GPU stream.
func (k Kind) OnGPU() bool {
	return k == KindCompute || k == KindComm || k == KindMemcpy || k == KindMemset || k == KindGPUAnnotation
}

// ParseKind is the inverse of Kind.String; unknown names give KindUnknown.
func ParseKind(s string) Kind {
	for i, n := range kindNames {
		if n == s {
			return Kind(i)
		}
	}
	return KindUnknown
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

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "other"
}

// ParseOp is the inverse of Op.String; unknown names give OpOther, "" gives OpNone.
func ParseOp(s string) Op {
	if s == "" {
		return OpNone
	}
	for i, n := range opNames {
		if n == s {
			return Op(i)
		}
	}
	return OpOther
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
	axisCount
)

var axisNames = [...]string{"unknown", "TP", "PP", "DP", "CP", "EP", "WORLD"}

func (a Axis) String() string {
	if int(a) < len(axisNames) {
		return axisNames[a]
	}
	return "unknown"
}

// ParseAxis is the inverse of Axis.String (case-sensitive); unknown names give AxisUnknown.
func ParseAxis(s string) Axis {
	for i, n := range axisNames {
		if n == s {
			return Axis(i)
		}
	}
	return AxisUnknown
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

func (s AxisSource) String() string {
	if int(s) < len(axisSourceNames) {
		return axisSourceNames[s]
	}
	return "unknown"
}

// ParseAxisSource is the inverse of AxisSource.String.
func ParseAxisSource(s string) AxisSource {
	for i, n := range axisSourceNames {
		if n == s {
			return AxisSource(i)
		}
	}
	return AxisByUnknown
}
