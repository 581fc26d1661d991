package samples

import "fmt"

// rankState is one rank's progress through its program, on the true clock.
type rankState struct {
	pc        int
	cpu       int64 // CPU cursor: when the host can launch the next op
	last      [nSlots]int32
	start     []int64 // GPU start of each op (the sync op: CPU entry)
	end       []int64 // GPU end, -1 until known
	cpuStart  []int64
	cpuEnd    []int64
	stepStart []int64 // window start of each step
	stepEnd   []int64
	stalled   bool // the late rank's host stall before the current op is done
}

const (
	syncLatencyNs = 12_000 // device-synchronize return after the last kernel
	stepTailNs    = 6_000  // ProfilerStep end after the sync returns
)

// solve runs every rank's program until all are done: a rank advances while
// the ops it needs have known ends; collectives resolve when their last
// member arrives.
func (s *sim) solve() error {
	s.ranks = make([]rankState, len(s.progs))
	for r := range s.ranks {
		s.initRank(r)
	}
	for {
		progress, done := false, true
		for r := range s.ranks {
			progress = s.advance(r) || progress
			done = done && s.ranks[r].pc == len(s.progs[r])
		}
		if done {
			return nil
		}
		if !progress {
			return s.deadlock()
		}
	}
}

func (s *sim) initRank(r int) {
	n := len(s.progs[r])
	st := &s.ranks[r]
	st.start, st.end = make([]int64, n), make([]int64, n)
	st.cpuStart, st.cpuEnd = make([]int64, n), make([]int64, n)
	for i := range st.end {
		st.end[i] = -1
	}
	for i := range st.last {
		st.last[i] = -1
	}
	st.stepStart, st.stepEnd = make([]int64, s.cfg.Steps), make([]int64, s.cfg.Steps)
	st.cpu = s.rng.Int64N(s.cfg.StartSkewNs + 1)
}

func (s *sim) deadlock() error {
	for r, st := range s.ranks {
		if st.pc < len(s.progs[r]) {
			o := s.progs[r][st.pc]
			return fmt.Errorf("simulation deadlock: rank %d stuck at op %d (%s, step %d, microbatch %d)", r, st.pc, o.kernel, o.step, o.micro)
		}
	}
	return fmt.Errorf("simulation deadlock")
}

// advance processes rank r's ops while it can; it reports progress.
func (s *sim) advance(r int) bool {
	st, prog, moved := &s.ranks[r], s.progs[r], false
	for st.pc < len(prog) {
		o := &prog[st.pc]
		if st.pc == 0 || prog[st.pc-1].step != o.step {
			st.stepStart[o.step] = st.cpu
			st.cpu += s.cfg.StepGapNs
		}
		ready, ok := s.ready(st, o)
		if ok && s.lateOp(r, o) && !st.stalled {
			ready, ok = s.stall(st, o)
		}
		if !ok {
			if st.pc == 0 || prog[st.pc-1].step != o.step {
				st.cpu -= s.cfg.StepGapNs
			}
			return moved
		}
		s.run(r, st, o, ready)
		moved = true
	}
	return moved
}

// ready returns the earliest GPU start of op o, or false while an op it
// depends on has no known end.
func (s *sim) ready(st *rankState, o *op) (int64, bool) {
	t := s.launchAt(st) + s.launchOffset(o) + s.cfg.LaunchLatencyNs
	deps := []int32{o.deps[0], o.deps[1], st.last[o.slot]}
	if o.class == classSync {
		deps = st.last[:]
	}
	for _, d := range deps {
		if d < 0 {
			continue
		}
		if st.end[d] < 0 {
			return 0, false
		}
		t = max(t, st.end[d])
	}
	return t, true
}

// launchAt is when the host launches the current op: after the previous
// launch, and once the kernel QueueDepth launches back has started.
func (s *sim) launchAt(st *rankState) int64 {
	t := st.cpu
	if q := st.pc - s.cfg.QueueDepth; q >= 0 {
		t = max(t, st.start[q])
	}
	return t
}

// launchOffset is where the launch call sits inside the op's CPU span.
func (s *sim) launchOffset(o *op) int64 {
	if o.class == classCompute {
		return s.cfg.LaunchNs / 4
	}
	return s.cfg.LaunchNs
}

// cpuCost is the CPU time of launching op o.
func (s *sim) cpuCost(o *op) int64 {
	if o.class == classCompute {
		return s.cfg.LaunchNs
	}
	return 3 * s.cfg.LaunchNs
}

// run executes op o of rank r starting at ready.
func (s *sim) run(r int, st *rankState, o *op, ready int64) {
	i := st.pc
	st.stalled = false
	st.cpuStart[i] = s.launchAt(st)
	switch o.class {
	case classSync:
		st.start[i] = st.cpuStart[i]
		st.end[i] = max(ready, st.cpuStart[i]) + syncLatencyNs
		st.cpuEnd[i] = st.end[i]
		st.stepEnd[o.step] = st.end[i] + stepTailNs
		st.cpu = st.stepEnd[o.step]
	case classCompute:
		st.start[i], st.end[i] = ready, ready+o.dur
		st.cpuEnd[i] = st.cpuStart[i] + s.cpuCost(o)
	default:
		st.start[i] = ready
		st.cpuEnd[i] = st.cpuStart[i] + s.cpuCost(o)
		s.arrive(o.inst, opRef{int32(r), int32(i)}, ready)
	}
	if o.class != classSync {
		st.cpu = st.cpuEnd[i]
		st.last[o.slot] = int32(i)
	}
	st.pc++
}
