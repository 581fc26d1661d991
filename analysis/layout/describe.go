package layout

import (
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// megatronGroups maps Megatron-LM process-group descriptions to axes.
// Composite groups (MODEL_PARALLEL_GROUP = TP×PP, TENSOR_AND_DATA_...,
// EMBEDDING_GROUP) serve no single axis and are left unknown.
var megatronGroups = map[string]model.Axis{
	"TENSOR_MODEL_PARALLEL_GROUP":               model.AxisTP,
	"PIPELINE_MODEL_PARALLEL_GROUP":             model.AxisPP,
	"DATA_PARALLEL_GROUP":                       model.AxisDP,
	"DATA_PARALLEL_GROUP_WITH_CP":               model.AxisDP,
	"CONTEXT_PARALLEL_GROUP":                    model.AxisCP,
	"EXPERT_MODEL_PARALLEL_GROUP":               model.AxisEP,
	"INTRA_PARTIAL_DATA_PARALLEL_GROUP_WITH_CP": model.AxisDP,
	"INTER_PARTIAL_DATA_PARALLEL_GROUP_WITH_CP": model.AxisDP,
	"DEFAULT_PG": model.AxisWorld,
}

// meshDims maps DeviceMesh dimension names (torchtitan: group_desc
// "mesh_<dim>") to axes.
var meshDims = map[string]model.Axis{
	"tp": model.AxisTP, "pp": model.AxisPP, "cp": model.AxisCP, "ep": model.AxisEP,
	"dp": model.AxisDP, "dp_shard": model.AxisDP, "dp_replicate": model.AxisDP,
	"dp_cp": model.AxisDP, "dp_shard_cp": model.AxisDP, "fsdp": model.AxisDP,
	"ddp": model.AxisDP, "hsdp": model.AxisDP, "world": model.AxisWorld,
}

// labelByDescription labels communicators whose description or name is a
// known group name.
func labelByDescription(t *model.Trace) {
	for i := range t.Comms {
		c := &t.Comms[i]
		if c.AxisBy == model.AxisByFlag {
			continue
		}
		a := axisOfName(c.Desc)
		if a == model.AxisUnknown {
			a = axisOfName(c.Name)
		}
		if a != model.AxisUnknown {
			c.Axis, c.AxisBy = a, model.AxisByDescription
		}
	}
}

// axisOfName decodes one group name: a Megatron description (optionally
// with a trailing "_<n>" instance suffix) or a DeviceMesh dimension.
func axisOfName(s string) model.Axis {
	s = strings.TrimSpace(s)
	if s == "" {
		return model.AxisUnknown
	}
	up := strings.ToUpper(s)
	if a, ok := megatronGroups[up]; ok {
		return a
	}
	if a, ok := megatronGroups[strings.TrimRight(strings.TrimRight(up, "0123456789"), "_")]; ok {
		return a
	}
	low := strings.ToLower(s)
	if dim, ok := strings.CutPrefix(low, "mesh_"); ok {
		return meshDims[dim]
	}
	if a, ok := meshDims[low]; ok && low != "world" {
		return a
	}
	return model.AxisUnknown
}
