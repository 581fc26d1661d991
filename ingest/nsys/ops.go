package nsys

import (
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// apiOps maps NCCL API range names to operations.
var apiOps = map[string]model.Op{
	"ncclAllReduce": model.OpAllReduce, "ncclAllGather": model.OpAllGather,
	"ncclReduceScatter": model.OpReduceScatter, "ncclBroadcast": model.OpBroadcast,
	"ncclBcast": model.OpBroadcast, "ncclReduce": model.OpReduce,
	"ncclSend": model.OpSend, "ncclRecv": model.OpRecv, "ncclAlltoAll": model.OpAllToAll,
	"ncclGather": model.OpOther, "ncclScatter": model.OpOther,
}

// kernelOps maps the collective token of an NCCL kernel name.
var kernelOps = map[string]model.Op{
	"AllReduce": model.OpAllReduce, "AllGather": model.OpAllGather, "AllGatherV": model.OpAllGather,
	"ReduceScatter": model.OpReduceScatter, "Broadcast": model.OpBroadcast,
	"Reduce": model.OpReduce, "SendRecv": model.OpSendRecv, "AlltoAll": model.OpAllToAll,
}

// isCommInit reports whether an NCCL API creates a communicator.
func isCommInit(api string) bool {
	return strings.HasPrefix(api, "ncclCommInit") || api == "ncclCommSplit"
}

// kernelOp reads the operation from an NCCL kernel name:
// ncclDevKernel_AllReduce_Sum_bf16_RING_LL(...), ncclKernel_SendRecv_...,
// ncclSymkDevKernel_AllGather_... .
func kernelOp(name string) model.Op {
	name = strings.TrimPrefix(name, "void ")
	for _, p := range []string{"ncclDevKernel_", "ncclKernel_", "ncclSymkDevKernel_"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			tok, _, _ := strings.Cut(rest, "_")
			tok, _, _ = strings.Cut(tok, "(")
			if op, ok := kernelOps[tok]; ok {
				return op
			}
			return model.OpOther
		}
	}
	return model.OpOther
}
