// Package layout decides the parallel layout of a job: which axis (TP, PP,
// DP, CP, EP) each communicator serves and each rank's coordinates.
//
// Evidence is trusted in this order: the user's flags, process-group
// descriptions (Megatron group names, DeviceMesh dimension names), member
// sets equal to an already labelled group, then traffic (p2p-only pairs are
// pipeline links; the busiest groups are tensor parallel, the quietest data
// parallel). Pipeline send/recv kernels that carry no communicator are given
// one. See docs/layout.md.
package layout

import (
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

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
	Warnings           []string  // what could not be inferred, and why (collectives left unmatched)
}

// Problem is a topology finding.
type Problem struct {
	Kind  string           // "tp_across_hosts", "world_size_mismatch", "order_mismatch", "group_mismatch"
	Says  result.Statement // what it says, as data (vocab.Statements)
	Ranks []int32          // ranks involved
}

// Infer labels t.Comms[i].Axis/AxisBy and sets t.Ranks[i].Coord, and returns
// the layout. Pipeline p2p kernels without a communicator get a 2-member PP
// communicator (Colls.Comm is set). Inconsistencies are reported as
// Problems; only malformed flags give an error.
func Infer(t *model.Trace, f Flags) (Layout, error) {
	order, err := parseOrder(f.Order)
	if err != nil {
		return Layout{}, fmt.Errorf("layout: %w", err)
	}
	if err := f.check(); err != nil {
		return Layout{}, fmt.Errorf("layout: %w", err)
	}
	world := worldSize(t)
	warnings := inferWorld(t, f)
	attributeByStream(t)
	labelByDescription(t)
	linkPeers(t)
	labelByMembers(t)
	labelByTraffic(t)
	splitAllToAll(t)
	l := decideSizes(t, f, world)
	l.Order, l.Problems = orderOf(t, l, order, f.Order != "" || f.any())
	assignCoords(t, l)
	attributePeerless(t, l)
	labelByLayout(t, l, f.any())
	l.By = decidedBy(t, f.any())
	l.Problems = append(l.Problems, problems(t, l, world)...)
	l.Problems = append(l.Problems, topologyProblems(t, l, l.Problems)...)
	l.Warnings = warnings
	return l, nil
}

func (f Flags) any() bool { return f.TP+f.PP+f.DP+f.CP+f.EP > 0 }

func (f Flags) check() error {
	for _, v := range []int{f.TP, f.PP, f.DP, f.CP, f.EP} {
		if v < 0 {
			return fmt.Errorf("parallel sizes must be positive, got %d", v)
		}
	}
	return nil
}

// worldSize is the number of ranks: the rank table, or one more than the
// highest rank any communicator names, whichever is larger.
func worldSize(t *model.Trace) int {
	n := len(t.Ranks)
	if n > 0 {
		n = max(n, int(t.Ranks[n-1].Rank)+1)
	}
	for _, c := range t.Comms {
		for _, m := range c.Members {
			n = max(n, int(m)+1)
		}
	}
	return n
}

// size returns the layout's size of axis a (1 for axes it has none of).
func (l Layout) size(a model.Axis) int {
	if p := l.field(a); p != nil {
		return *p
	}
	return 1
}

func (l *Layout) set(a model.Axis, v int) {
	if p := l.field(a); p != nil {
		*p = v
	}
}

// field is the size field of axis a, nil for axes a layout has none of.
func (l *Layout) field(a model.Axis) *int {
	return axisField(a, &l.TP, &l.PP, &l.DP, &l.CP, &l.EP)
}

// axisField picks, of the five per-axis fields given in the order TP, PP,
// DP, CP, EP, the one of axis a (nil for any other axis). Layout sizes and
// coordinates both select through it.
func axisField[T any](a model.Axis, tp, pp, dp, cp, ep *T) *T {
	switch a {
	case model.AxisTP:
		return tp
	case model.AxisPP:
		return pp
	case model.AxisDP:
		return dp
	case model.AxisCP:
		return cp
	case model.AxisEP:
		return ep
	}
	return nil
}
