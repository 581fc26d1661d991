package nsys

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// ncclRange is an NVTX range of the NCCL domain, kept for linking.
type ncclRange struct {
	ev      int32  // event index
	api     string // ncclAllReduce, ncclGroupEnd, ...
	payload string // jsonText, "" when none
}

// commInit is what an ncclCommInitRank* payload says about one process.
type commInit struct {
	pid int32
	p   payload
}

// collAcc gathers the payloads tied to one NCCL kernel.
type collAcc struct {
	ops   []model.Op
	ps    []payload
	bytes int64
	op1   [1]model.Op // ops and ps of a kernel of one call, without an allocation
	p1    [1]payload
}

// linker ties NCCL API ranges to the kernels they launched: the runtime
// launch calls inside the range on the same thread, joined to kernels by
// (process, correlationId). Grouped calls (ncclGroupStart ... ncclGroupEnd)
// launch at ncclGroupEnd, so their payloads wait for it.
type linker struct {
	b        *builder
	launches map[int32][]int32    // thread stream -> runtime events by start
	kernels  map[[2]int64]int32   // (pid, corr) -> comm kernel event
	acc      map[int32]*collAcc   // comm kernel event -> payloads
	pending  map[int32][]pendCall // thread stream -> grouped calls not launched yet
	parsed   map[string]payload   // payload text -> decoded (payloads repeat from step to step)
	slab     []collAcc            // where acc's entries are allocated, a chunk at a time
	ks       []int32              // kernelsIn's result, reused
	one      [1]pendCall          // the call visit attaches at once
}

type pendCall struct {
	op model.Op
	p  payload
}

func (b *builder) link() map[int32]*collAcc {
	l := &linker{b: b, launches: map[int32][]int32{}, acc: map[int32]*collAcc{}, pending: map[int32][]pendCall{}, parsed: map[string]payload{}}
	l.index()
	ev := &b.tr.Events
	slices.SortFunc(b.nccl, func(x, y ncclRange) int { return cmp.Compare(ev.Start[x.ev], ev.Start[y.ev]) })
	for _, r := range b.nccl {
		l.visit(r)
	}
	return l.acc
}

func (l *linker) index() {
	ev := &l.b.tr.Events
	l.kernels = make(map[[2]int64]int32, commKernels(ev)) // sized once: growing it was most of index
	thread, calls := int32(0), []int32(nil)               // the last thread's launches, not yet in the map
	for i := 0; i < ev.Len(); i++ {
		switch ev.Kind[i] {
		case model.KindRuntime:
			if s := ev.Stream[i]; s != thread || calls == nil { // a thread's calls mostly follow each other
				if calls != nil {
					l.launches[thread] = calls
				}
				thread, calls = s, l.launches[s]
			}
			calls = append(calls, int32(i))
		case model.KindComm:
			if ev.Corr[i] >= 0 {
				l.kernels[[2]int64{int64(ev.Rank[i]), ev.Corr[i]}] = int32(i)
			}
		}
	}
	if calls != nil {
		l.launches[thread] = calls
	}
	for _, s := range l.launches {
		slices.SortFunc(s, func(a, b int32) int { return cmp.Compare(ev.Start[a], ev.Start[b]) })
	}
}

// commKernels counts the comm kernels with a correlation id.
func commKernels(ev *model.Events) int {
	n := 0
	for i, k := range ev.Kind {
		if k == model.KindComm && ev.Corr[i] >= 0 {
			n++
		}
	}
	return n
}

func (l *linker) visit(r ncclRange) {
	p := l.payload(r.payload)
	if isCommInit(r.api) {
		l.b.inits = append(l.b.inits, commInit{pid: l.b.tr.Events.Rank[r.ev], p: p})
		return
	}
	thread := l.b.tr.Events.Stream[r.ev]
	ks := l.kernelsIn(r.ev)
	if op, ok := apiOps[r.api]; ok {
		if len(ks) == 0 {
			l.pending[thread] = append(l.pending[thread], pendCall{op, p})
			return
		}
		l.one[0] = pendCall{op, p} // attach keeps none of its calls: no slice allocated per call
		l.attach(ks, l.one[:])
		return
	}
	if r.api == "ncclGroupEnd" && len(ks) > 0 {
		l.attach(ks, l.pending[thread])
		l.pending[thread] = nil
	}
}

// kernelsIn returns the comm kernels launched from inside range ev.
func (l *linker) kernelsIn(ev int32) []int32 {
	e := &l.b.tr.Events
	lo, hi := e.Start[ev], e.Start[ev]+e.Dur[ev]
	ls := l.launches[e.Stream[ev]]
	i, _ := slices.BinarySearchFunc(ls, lo, func(x int32, t int64) int { return cmp.Compare(e.Start[x], t) })
	out := l.ks[:0] // valid until the next call: visit keeps none
	for ; i < len(ls) && e.Start[ls[i]] <= hi; i++ {
		if k, ok := l.kernels[[2]int64{int64(e.Rank[ev]), e.Corr[ls[i]]}]; ok {
			out = append(out, k)
		}
	}
	l.ks = out
	return out
}

// attach gives calls to kernels in order; extra calls go to the last kernel
// (one fused kernel serves a whole group on one communicator).
func (l *linker) attach(ks []int32, calls []pendCall) {
	for i, c := range calls {
		k := ks[min(i, len(ks)-1)]
		a := l.acc[k]
		if a == nil {
			a = l.newAcc()
			l.acc[k] = a
		}
		a.ops = append(a.ops, c.op)
		a.ps = append(a.ps, c.p)
		if c.p.bytes >= 0 {
			a.bytes = max(a.bytes, 0) + c.p.bytes
		}
	}
}

// newAcc is an empty collAcc from the slab.
func (l *linker) newAcc() *collAcc {
	if len(l.slab) == cap(l.slab) {
		l.slab = make([]collAcc, 0, 256) // the full chunk stays where acc points
	}
	l.slab = l.slab[:len(l.slab)+1]
	a := &l.slab[len(l.slab)-1]
	a.bytes, a.ops, a.ps = -1, a.op1[:0], a.p1[:0]
	return a
}

// payload decodes a payload text once.
func (l *linker) payload(text string) payload {
	p, ok := l.parsed[text]
	if !ok {
		p, _ = parsePayload(text)
		l.parsed[text] = p
	}
	return p
}
