package nsys

import (
	"strconv"

	"github.com/tpptrace/tpptrace/model"
)

// declareWorld records the job sizes the report states: the launcher's
// WORLD_SIZE in the captured environment, and the size of the largest NCCL
// communicator it initialised ("No. of ranks"), a lower bound of the job's.
func (b *builder) declareWorld() {
	if n, err := strconv.ParseInt(b.meta.env["WORLD_SIZE"], 10, 32); err == nil {
		b.tr.DeclareWorld(int32(n), model.WorldByEnv, 1)
	}
	var most int32
	for _, in := range b.inits {
		most = max(most, in.p.nranks)
	}
	b.tr.DeclareWorld(most, model.WorldByNCCL, 1)
}
