package kineto

import (
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// axisFromDesc reads the parallel axis from a process-group description:
// Megatron group names (TENSOR_MODEL_PARALLEL_GROUP, ...), DeviceMesh
// dimension names (mesh_tp, mesh_dp_shard, ...) and default_pg.
func axisFromDesc(desc string) model.Axis {
	d := strings.ToLower(desc)
	if d == "default_pg" {
		return model.AxisWorld
	}
	for _, a := range descAxes {
		for _, w := range a.words {
			if strings.Contains(d, w) {
				return a.axis
			}
		}
	}
	return model.AxisUnknown
}

var descAxes = []struct {
	axis  model.Axis
	words []string
}{
	{model.AxisEP, []string{"expert", "mesh_ep"}},
	{model.AxisCP, []string{"context_parallel", "mesh_cp"}},
	{model.AxisTP, []string{"tensor_model_parallel", "tensor_parallel", "mesh_tp"}},
	{model.AxisPP, []string{"pipeline_model_parallel", "pipeline_parallel", "mesh_pp"}},
	{model.AxisDP, []string{"data_parallel", "mesh_dp", "mesh_fsdp", "mesh_hsdp"}},
}
