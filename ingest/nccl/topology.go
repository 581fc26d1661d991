package nccl

import (
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// CommAxis returns a communicator's axis: the one already decided, else the
// one its name or description states (Megatron group descriptions,
// DeviceMesh "mesh_<dim>", comm names such as "TP Group 0"), else unknown.
func CommAxis(c model.Communicator) model.Axis {
	if c.Axis != model.AxisUnknown {
		return c.Axis
	}
	for _, s := range []string{c.Desc, c.Name} {
		if a := axisOfText(s); a != model.AxisUnknown {
			return a
		}
	}
	return model.AxisUnknown
}

var axisTexts = map[string]model.Axis{
	"TENSOR_MODEL_PARALLEL_GROUP": model.AxisTP, "PIPELINE_MODEL_PARALLEL_GROUP": model.AxisPP,
	"DATA_PARALLEL_GROUP": model.AxisDP, "DATA_PARALLEL_GROUP_WITH_CP": model.AxisDP,
	"CONTEXT_PARALLEL_GROUP": model.AxisCP, "EXPERT_MODEL_PARALLEL_GROUP": model.AxisEP,
	"mesh_tp": model.AxisTP, "mesh_pp": model.AxisPP, "mesh_dp": model.AxisDP, "mesh_dp_replicate": model.AxisDP,
	"mesh_cp": model.AxisCP, "mesh_ep": model.AxisEP, "default_pg": model.AxisWorld,
}

func axisOfText(s string) model.Axis {
	if a, ok := axisTexts[s]; ok {
		return a
	}
	f := strings.Fields(strings.ToUpper(s))
	if len(f) > 0 && (len(f) == 1 || f[1] == "GROUP") {
		return model.ParseAxis(f[0])
	}
	return model.AxisUnknown
}
