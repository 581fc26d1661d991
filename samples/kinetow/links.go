package kinetow

import "github.com/tpptrace/tpptrace/model"

// links are the ids a rank's events carry: External ids of CPU events
// (runtime calls and kernels take their innermost enclosing CPU op's), and
// the collective each record_param_comms op launched.
type links struct {
	ext       []int64         // per event row lo..hi, 0 when none
	kernelExt map[int64]int64 // correlation → External id
	rpcColl   map[int]int32   // record_param_comms row → collective
}

// link sweeps rank rows [lo, hi) of t, which are sorted by start with
// enclosing events first.
func link(t *model.Trace, lo, hi int) *links {
	ev := &t.Events
	l := &links{ext: make([]int64, hi-lo), kernelExt: map[int64]int64{}, rpcColl: map[int]int32{}}
	corrColl := map[int64]int32{}
	for i := lo; i < hi; i++ {
		if ev.Kind[i].OnGPU() && ev.Corr[i] >= 0 {
			corrColl[ev.Corr[i]] = ev.Coll[i]
		}
	}
	stacks := map[int32][]int{} // per CPU thread
	next := int64(1)
	for i := lo; i < hi; i++ {
		if ev.Kind[i].OnGPU() {
			continue
		}
		stack := stacks[ev.Stream[i]]
		for len(stack) > 0 && ev.Start[stack[len(stack)-1]]+ev.Dur[stack[len(stack)-1]] <= ev.Start[i] {
			stack = stack[:len(stack)-1]
		}
		if ev.Kind[i] != model.KindRuntime {
			l.ext[i-lo], next = next, next+1
			stacks[ev.Stream[i]] = append(stack, i)
			continue
		}
		stacks[ev.Stream[i]] = stack
		l.runtime(t, i, lo, stack, corrColl)
	}
	return l
}

// runtime links launch i to its enclosing ops.
func (l *links) runtime(t *model.Trace, i, lo int, stack []int, corrColl map[int64]int32) {
	ev := &t.Events
	op := innermost(t, stack, func(j int) bool { return ev.Kind[j] == model.KindCPUOp })
	if op < 0 && len(stack) > 0 {
		op = stack[len(stack)-1]
	}
	if op >= 0 {
		l.ext[i-lo] = l.ext[op-lo]
	}
	c := ev.Corr[i]
	if c < 0 {
		return
	}
	l.kernelExt[c] = l.ext[i-lo]
	if coll, ok := corrColl[c]; ok && coll >= 0 {
		if rpc := innermost(t, stack, func(j int) bool { return t.Name(j) == samplesRPC }); rpc >= 0 {
			l.rpcColl[rpc] = coll
		}
	}
}

func innermost(t *model.Trace, stack []int, ok func(int) bool) int {
	for k := len(stack) - 1; k >= 0; k-- {
		if ok(stack[k]) {
			return stack[k]
		}
	}
	return -1
}
