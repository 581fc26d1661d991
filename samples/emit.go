package samples

import (
	"fmt"

	"github.com/tpptrace/tpptrace/model"
)

// Clock constants of the written traces.
const (
	// BaseTimeNs is the epoch ns every rank's times count from (Kineto's
	// baseTimeNanoseconds, the same on all ranks of a job).
	BaseTimeNs = int64(1_711_964_646_000_000_000)
	// traceOriginNs is true time 0 on a clock with offset 0, relative to
	// BaseTimeNs (51 days into the quarter, as in real traces).
	traceOriginNs = int64(4_458_676_522_000_000)
	pidBase       = 2_910_000
)

// emitter writes the model of what each rank's profiler records.
type emitter struct {
	s     *sim
	t     *model.Trace
	comms []int32 // group index → Trace.Comms index
	corr  int64
}

func (s *sim) emit() *model.Trace {
	e := &emitter{s: s, t: &model.Trace{}}
	for _, g := range s.groups {
		e.comms = append(e.comms, e.t.AddComm(model.Communicator{ID: g.name, Name: g.name, Desc: g.desc, Members: g.members}))
	}
	for r := range s.progs {
		e.rank(r)
	}
	e.t.Events.Sort()
	e.t.Events.Link() // as ingest links what it reads
	e.t.Counters.Sort()
	return e.t
}

// PID returns the OS process id the generator gives rank r (its main
// thread has the same id).
func PID(r int) int64 { return int64(pidBase + 131*r) }

// rankCtx is what emitting one rank needs.
type rankCtx struct {
	r       int32
	off     int64 // true time → rank clock
	cut     int64 // true time the capture ends (CutLastStep), else MaxInt64
	thread  int32 // the main thread
	grad    int32 // the autograd engine's thread, -1 until used
	cur     int32 // the thread cpu events go to
	streams [nSlots]int32
}

func (e *emitter) rank(r int) {
	c := e.s.cfg
	e.t.AddRank(model.Rank{Rank: int32(r), Host: c.Host(r), PID: PID(r), LocalGPU: int32(r % c.GPUsPerHost),
		GPUName: c.GPUName, Coord: model.UnknownCoord, Source: -1, ClockBase: BaseTimeNs})
	x := &rankCtx{r: int32(r), off: traceOriginNs + e.s.hostOffsets[r/c.GPUsPerHost], cut: e.s.cutAt(r)}
	x.thread = e.t.AddStream(model.Stream{Rank: int32(r), ID: PID(r), Device: -1,
		Name: fmt.Sprintf("thread %d (pt_main_thread)", PID(r))})
	x.cur, x.grad = x.thread, -1
	for i := range x.streams {
		x.streams[i] = -1
	}
	if c.cpuSide() {
		e.stepAnnotations(x)
		e.phaseAnnotations(x)
	}
	prog := e.s.progs[r]
	for i := range prog {
		e.op(x, &prog[i], i)
	}
	e.memCounters(x)
}

// stream returns the model stream of slot sl, adding it on first use.
func (e *emitter) stream(x *rankCtx, sl slot) int32 {
	if x.streams[sl] < 0 {
		dev := int32(int(x.r) % e.s.cfg.GPUsPerHost)
		x.streams[sl] = e.t.AddStream(model.Stream{Rank: x.r, GPU: true, ID: streamIDs[sl], Device: dev,
			Name: fmt.Sprintf("stream %d", streamIDs[sl])})
	}
	return x.streams[sl]
}

// cpu appends a CPU-side event [lo, hi) (true time) on the current thread
// (x.cur); the capture's end drops or clips it (the profiler closes open
// ranges).
func (e *emitter) cpu(x *rankCtx, k model.Kind, name string, lo, hi, corr int64) {
	if lo >= x.cut {
		return
	}
	hi = min(hi, x.cut)
	ev := model.NewEvent(x.r, k, e.t.Names.Intern(name), lo+x.off, hi-lo)
	ev.Stream, ev.Corr = x.cur, corr
	e.t.AddEvent(ev)
}

func (e *emitter) stepAnnotations(x *rankCtx) {
	st := &e.s.ranks[x.r]
	for k := range e.s.cfg.Steps {
		e.cpu(x, model.KindAnnotation, fmt.Sprintf(StepFmt, e.s.cfg.FirstStep+k), st.stepStart[k], st.stepEnd[k], -1)
	}
}

// phaseAnnotations wraps each run of ops of one (phase, microbatch) in a
// user annotation: forward_step#i, backward_step#i, the DP sync, the optimizer.
func (e *emitter) phaseAnnotations(x *rankCtx) {
	st, prog := &e.s.ranks[x.r], e.s.progs[x.r]
	for i := 0; i < len(prog); {
		j := i
		for j+1 < len(prog) && samePass(&prog[j+1], &prog[i]) {
			j++
		}
		if name := e.phaseName(&prog[i], x.r); name != "" {
			e.cpu(x, model.KindAnnotation, name, st.cpuStart[i], st.cpuEnd[j], -1)
		}
		i = j + 1
	}
}

func samePass(a, b *op) bool {
	return a.phase == b.phase && a.micro == b.micro && a.chunk == b.chunk && a.step == b.step
}

// phaseName is the annotation of o's run of ops in the job's dialect;
// passes of an interleaved pipeline name their model chunk
// (forward_step#3.chunk1, PP:5F3).
func (e *emitter) phaseName(o *op, r int32) string {
	c := e.s.cfg
	switch o.phase {
	case phaseFwd, phaseBwd:
		return c.passName(o.phase == phaseFwd, o.micro, o.chunk, c.Place(int(r)).PP)
	case phaseDP:
		if c.Dialect == DialectTpptrace {
			return DPSyncName
		}
	case phaseOpt:
		return OptimName
	}
	return ""
}
