package samples

import (
	"cmp"
	"math"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// memDelta is one change of a rank's allocated GPU memory, in true time.
type memDelta struct {
	t, d int64
}

// actBytes is the activation memory one layer keeps per microbatch.
func (c *Config) actBytes() int64 { return cmp.Or(c.ActMemBytes, 4*c.ActivationBytes) }

// staticBytes is the constant memory of one rank: parameters, gradients
// and optimizer state of the layers it holds.
func (c *Config) staticBytes() int64 {
	return cmp.Or(c.StaticMemBytes, 8*c.GradBytesPerLayer) * int64(c.LayersPerStage)
}

// passKey is one forward/backward pass pair of a microbatch on a chunk.
type passKey struct{ step, micro, chunk int32 }

// memDeltas is rank r's memory changes: a pass's activations are allocated
// when its first forward kernel starts and freed when its last backward
// kernel ends. Frees sort before allocations at the same instant.
func (s *sim) memDeltas(r int) []memDelta {
	prog, st := s.progs[r], &s.ranks[r]
	act := s.cfg.actBytes() * int64(s.cfg.LayersPerStage) / int64(s.cfg.chunks())
	lastBwd, seen := map[passKey]int{}, map[passKey]bool{}
	for i := range prog {
		if o := &prog[i]; o.class == classCompute && o.phase == phaseBwd {
			lastBwd[passKey{o.step, o.micro, o.chunk}] = i
		}
	}
	var out []memDelta
	for i := range prog {
		o := &prog[i]
		k := passKey{o.step, o.micro, o.chunk}
		if o.class != classCompute || o.micro < 0 {
			continue
		}
		if o.phase == phaseFwd && !seen[k] {
			seen[k] = true
			out = append(out, memDelta{st.start[i], act})
		}
		if o.phase == phaseBwd && lastBwd[k] == i {
			out = append(out, memDelta{st.end[i], -act})
		}
	}
	slices.SortStableFunc(out, func(a, b memDelta) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.d, b.d)) })
	return out
}

// peakMem is the largest allocated level of rank r within [lo, hi).
func (s *sim) peakMem(r int, lo, hi int64) int64 {
	level, peak := s.cfg.staticBytes(), s.cfg.staticBytes()
	for _, d := range s.memDeltas(r) {
		level += d.d
		if d.t >= lo && d.t < hi {
			peak = max(peak, level)
		}
	}
	return peak
}

// truthPeakMem is rank r's peak over the truth steps, 0 without
// MemoryEvents.
func (s *sim) truthPeakMem(r int) int64 {
	if !s.cfg.MemoryEvents {
		return 0
	}
	st, peak := &s.ranks[r], int64(math.MinInt64)
	lo, hi := s.cfg.truthRange()
	for k := lo; k < hi; k++ {
		peak = max(peak, s.peakMem(r, st.stepStart[k], st.stepEnd[k]))
	}
	return peak
}

// memCounters appends rank x's allocated-memory samples: the static level
// at its first step's start, then the level after each change.
func (e *emitter) memCounters(x *rankCtx) {
	if !e.s.cfg.MemoryEvents {
		return
	}
	id := e.t.Names.Intern(model.CounterMemAllocated)
	level := e.s.cfg.staticBytes()
	e.t.Counters.Append(model.Counter{Rank: x.r, Name: id, Time: e.s.ranks[x.r].stepStart[0] + x.off, Value: level})
	for _, d := range e.s.memDeltas(int(x.r)) {
		level += d.d
		if d.t < x.cut {
			e.t.Counters.Append(model.Counter{Rank: x.r, Name: id, Time: d.t + x.off, Value: level})
		}
	}
}

// stagePeaks fills each stage's peak memory and microbatches held.
func (s *sim) stagePeaks(stages []TruthStage, ranks []TruthRank) {
	if !s.cfg.MemoryEvents {
		return
	}
	per := float64(s.cfg.actBytes() * int64(s.cfg.LayersPerStage))
	for _, r := range ranks {
		st := &stages[r.PP]
		st.PeakMemBytes = max(st.PeakMemBytes, r.PeakMemBytes)
	}
	for i := range stages {
		stages[i].PeakMicrobatches = round6(float64(stages[i].PeakMemBytes-s.cfg.staticBytes()) / per)
	}
}
