// Package layout decides the parallel layout of a job: which axis (TP, PP,
// DP, CP, EP) each communicator serves and each rank's coordinates.
package layout

import "github.com/tpptrace/tpptrace/ingest/model"

// Flags are the user's overrides (--tp --pp --dp --cp --ep --order); zero
// means "infer".
type Flags struct {
	TP, PP, DP, CP, EP int
	Order              string // e.g. "tp-cp-ep-dp-pp" (fastest first), "" for Megatron's default
}

// Layout is the decided layout.
type Layout struct {
	TP, PP, DP, CP, EP int
	Order              string
	By                 string    // "flags", "descriptions", "members", "traffic", "single"
	Problems           []Problem // topology findings (TP across hosts, world size mismatch, ...)
}

// Problem is a topology finding.
type Problem struct {
	Kind    string  // "tp_across_hosts", "world_size_mismatch", "order_mismatch"
	Summary string  // one line
	Ranks   []int32 // ranks involved
}

// Infer labels t.Comms[i].Axis/AxisBy and sets t.Ranks[i].Coord, and returns
// the layout. (Being built.)
func Infer(t *model.Trace, f Flags) (Layout, error) {
	return Layout{TP: 1, PP: 1, DP: len(t.Ranks), Order: "tp-cp-ep-dp-pp", By: "single"}, nil
}
