package nccl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/model"
)

// TopoProblem is a placement finding, in the form of analysis/layout's
// problems: a kind, one line, the ranks involved.
type TopoProblem struct {
	Kind    string // "tp_across_hosts", "world_size_mismatch", "order_mismatch"
	Summary string
	Ranks   []int32
}

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

// TopologyProblems checks what the communicators and hosts say about the
// placement (seed §6.2, §6.9): a TP group spanning hosts, a world size that
// is not TP·PP·DP·CP, and TP or PP groups that break Megatron's
// tp-cp-ep-dp-pp order (TP groups are aligned blocks of consecutive ranks;
// PP groups stride by world/PP). Axes come from CommAxis; groups whose axis
// is unknown are not judged.
func TopologyProblems(t *model.Trace) []TopoProblem {
	groups := axisGroups(t)
	world := int32(len(t.Ranks))
	var out []TopoProblem
	out = append(out, tpAcrossHosts(t, groups[model.AxisTP])...)
	out = append(out, worldSize(world, groups)...)
	out = append(out, tpOrder(groups[model.AxisTP])...)
	return append(out, ppOrder(world, groups[model.AxisPP])...)
}

func axisGroups(t *model.Trace) map[model.Axis][][]int32 {
	out := map[model.Axis][][]int32{}
	for _, c := range t.Comms {
		a := CommAxis(c)
		if a != model.AxisUnknown && len(c.Members) > 0 {
			out[a] = append(out[a], c.Members)
		}
	}
	return out
}

func tpAcrossHosts(t *model.Trace, tp [][]int32) []TopoProblem {
	var out []TopoProblem
	for _, g := range tp {
		var hosts []string
		for _, r := range g {
			if i := t.FindRank(r); i >= 0 && t.Ranks[i].Host != "" && !slices.Contains(hosts, t.Ranks[i].Host) {
				hosts = append(hosts, t.Ranks[i].Host)
			}
		}
		if len(hosts) > 1 {
			slices.Sort(hosts)
			out = append(out, TopoProblem{Kind: "tp_across_hosts", Ranks: g,
				Summary: fmt.Sprintf("TP group %v spans hosts %s: its all-reduces cross the inter-node network", g, strings.Join(hosts, ", "))})
		}
	}
	return out
}

// worldSize compares the world with TP·PP·DP·CP when TP, PP and DP groups
// are all known (EP is carved out of DP in Megatron and not multiplied).
func worldSize(world int32, groups map[model.Axis][][]int32) []TopoProblem {
	sizes := map[model.Axis]int32{}
	for _, a := range []model.Axis{model.AxisTP, model.AxisPP, model.AxisDP, model.AxisCP} {
		sizes[a] = 1
		if gs := groups[a]; len(gs) > 0 {
			sizes[a] = int32(len(gs[0]))
		}
	}
	if len(groups[model.AxisTP]) == 0 || len(groups[model.AxisPP]) == 0 || len(groups[model.AxisDP]) == 0 {
		return nil
	}
	n := sizes[model.AxisTP] * sizes[model.AxisPP] * sizes[model.AxisDP] * sizes[model.AxisCP]
	if n == world {
		return nil
	}
	return []TopoProblem{{Kind: "world_size_mismatch", Summary: fmt.Sprintf("world size %d ≠ TP%d·PP%d·DP%d·CP%d = %d",
		world, sizes[model.AxisTP], sizes[model.AxisPP], sizes[model.AxisDP], sizes[model.AxisCP], n)}}
}

// tpOrder reports TP groups that are not aligned blocks of consecutive ranks.
func tpOrder(tp [][]int32) []TopoProblem {
	var out []TopoProblem
	for _, g := range tp {
		n := int32(len(g))
		if g[0]%n != 0 || g[n-1]-g[0] != n-1 {
			out = append(out, TopoProblem{Kind: "order_mismatch", Ranks: g,
				Summary: fmt.Sprintf("TP group %v is not a block of %d consecutive ranks starting at a multiple of %d (Megatron order tp-cp-ep-dp-pp)", g, n, n)})
		}
	}
	return out
}

// ppOrder reports PP groups whose members do not stride by world/PP.
func ppOrder(world int32, pp [][]int32) []TopoProblem {
	var out []TopoProblem
	for _, g := range pp {
		n := int32(len(g))
		if n < 2 || world%n != 0 {
			continue
		}
		stride := world / n
		for i := int32(1); i < n; i++ {
			if g[i]-g[i-1] != stride {
				out = append(out, TopoProblem{Kind: "order_mismatch", Ranks: g,
					Summary: fmt.Sprintf("PP group %v does not stride by world/PP = %d (Megatron order tp-cp-ep-dp-pp)", g, stride)})
				break
			}
		}
	}
	return out
}
