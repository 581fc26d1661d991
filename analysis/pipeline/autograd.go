package pipeline

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/model"
)

// evaluateFunction prefixes the CPU op the autograd engine runs for every
// backward node (autograd::engine::evaluate_function: MmBackward0).
const evaluateFunction = "autograd::engine::evaluate_function:"

// launchContexts reports, for rank r's rows (entry i-lo for row i, lo its
// first), which runtime calls launch from a backward context, and whether
// the rank carries any autograd cue (an autograd engine thread or an
// evaluate_function op). A launch is backward when it runs on the autograd
// engine's thread (pt_autograd_<device>) or inside an evaluate_function op
// of its own thread.
func launchContexts(t *model.Trace, r int32) ([]bool, bool) {
	lo, hi := t.Events.RankRange(r)
	ends := map[int32]int64{} // per thread: end of the latest evaluate_function
	bwd, cue := make([]bool, hi-lo), false
	for i := lo; i < hi; i++ {
		k, st := t.Events.Kind[i], t.Events.Stream[i]
		switch {
		case k == model.KindCPUOp && strings.HasPrefix(t.Name(i), evaluateFunction):
			ends[st], cue = max(ends[st], t.Events.Start[i]+t.Events.Dur[i]), true
		case k == model.KindRuntime && t.Events.Corr[i] >= 0:
			grad := autogradThread(t, st)
			cue = cue || grad
			bwd[i-lo] = grad || t.Events.Start[i] < ends[st]
		}
	}
	return bwd, cue
}

// autogradThread reports whether stream st is the autograd engine's thread.
func autogradThread(t *model.Trace, st int32) bool {
	return st >= 0 && int(st) < len(t.Streams) && !t.Streams[st].GPU &&
		strings.Contains(strings.ToLower(t.Streams[st].Name), "autograd")
}

// item is a compute kernel or a PP transfer of a rank in launch order.
type item struct {
	at    int64 // launch time
	row   int
	phase Phase // PhaseUnknown for a transfer
}

// autogradOps cuts rank r's compute kernels into passes in launch order: a
// pass ends where the launch context changes between forward and backward
// or a PP transfer is launched; each pass spans its kernels on the GPU.
func autogradOps(t *model.Trace, r int32, bwd []bool) []Op {
	var ops []Op
	cur := Op{Phase: PhaseUnknown}
	for _, it := range launchOrder(t, r, bwd) {
		if it.phase != cur.Phase && cur.Phase != PhaseUnknown {
			ops = append(ops, cur)
		}
		if it.phase == PhaseUnknown {
			cur.Phase = PhaseUnknown
			continue
		}
		end := t.Events.Start[it.row] + t.Events.Dur[it.row]
		if it.phase != cur.Phase {
			cur = Op{Phase: it.phase, Micro: -1, Chunk: -1, Start: t.Events.Start[it.row], End: end}
		}
		cur.Start, cur.End = min(cur.Start, t.Events.Start[it.row]), max(cur.End, end)
	}
	if cur.Phase != PhaseUnknown {
		ops = append(ops, cur)
	}
	slices.SortStableFunc(ops, func(a, b Op) int { return cmp.Compare(a.Start, b.Start) })
	return ops
}

// launchOrder lists rank r's launched compute kernels (with their phase)
// and PP transfers, by launch time; bwd is launchContexts'.
func launchOrder(t *model.Trace, r int32, bwd []bool) []item {
	lo, hi := t.Events.RankRange(r)
	launch := t.Events.Launches(lo, hi)
	var out []item
	for i := lo; i < hi; i++ {
		l := launch[i-lo]
		if l < 0 {
			continue
		}
		switch k := t.Events.Kind[i]; {
		case k == model.KindCompute:
			ph := PhaseFwd
			if bwd[int(l)-lo] {
				ph = PhaseBwd
			}
			out = append(out, item{t.Events.Start[l], i, ph})
		case k == model.KindComm && measure.AxisOf(t, i) == model.AxisPP:
			out = append(out, item{t.Events.Start[l], i, PhaseUnknown})
		}
	}
	slices.SortStableFunc(out, func(a, b item) int { return cmp.Compare(a.at, b.at) })
	return out
}

// dropTail removes the forward-context ops after the last backward of a
// step: the optimizer and other work launched from the main thread after
// the pipeline drains is no pass.
func dropTail(ops []Op) []Op {
	last := -1
	for k, op := range ops {
		if op.Phase.backward() {
			last = k
		}
	}
	if last < 0 {
		return ops
	}
	return ops[:last+1]
}
