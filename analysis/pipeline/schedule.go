package pipeline

import (
	"maps"
	"slices"
)

// Schedule names.
const (
	GPipe       = "gpipe"
	OneFOneB    = "1f1b"
	Interleaved = "interleaved"
	ZeroBubble  = "zero-bubble" // backward split into input- and weight-gradient passes (PP:<s>I<mb>, PP:<s>W<mb>)
	NoPipeline  = "none"
	Unknown     = "unknown"
)

// Schedule is a detected pipeline schedule.
type Schedule struct {
	Name string
	M    int // microbatches per step
	V    int // model chunks (virtual stages) per stage; 1 unless interleaved
}

// Detect reads the schedule from the ops of one rank in one step. ring is
// the number of recvs from the last stage (stage 0 of an interleaved
// pipeline only). With microbatch ids, m is the number of distinct
// forward microbatches; else m = forwards − ring recvs.
func Detect(ops []Op, ring int, g Geometry) Schedule {
	nF, micros := 0, map[int32]bool{}
	for _, op := range ops {
		if op.Phase == PhaseFwd {
			nF++
			if op.Micro >= 0 {
				micros[op.Micro] = true
			}
		}
	}
	if nF == 0 {
		return Schedule{Name: Unknown}
	}
	m := nF
	if len(micros) > 0 {
		m = len(micros)
	} else if ring > 0 && ring < nF {
		m = nF - ring
	}
	v := max(1, (nF+m/2)/m)
	if slices.ContainsFunc(ops, func(op Op) bool { return op.Phase == PhaseW }) {
		return Schedule{Name: ZeroBubble, M: m, V: v}
	}
	return Schedule{Name: order(ops, nF, v, g), M: m, V: v}
}

// order names the schedule from the number of forwards before the first
// backward: all of them (more than 1F1B's warm-up of p−s) is GPipe; at most
// the warm-up is 1F1B, or interleaved with more than one chunk.
func order(ops []Op, nF, v int, g Geometry) string {
	k := 0
	for _, op := range ops {
		if op.Phase.backward() {
			break
		}
		if op.Phase == PhaseFwd {
			k++
		}
	}
	warm := g.P - g.Stage
	switch {
	case v > 1:
		return Interleaved
	case k >= nF && nF > warm:
		return GPipe
	case k <= warm:
		return OneFOneB
	default:
		return Unknown
	}
}

// Vote combines per-rank detections: the most common name (ties go to the
// first in a fixed order), and the most common m and v among ranks that
// named it.
func Vote(all []Schedule) Schedule {
	names := map[string]int{}
	for _, s := range all {
		if s.Name != Unknown && s.Name != "" {
			names[s.Name]++
		}
	}
	best := Unknown // an order no known schedule fits still gives m
	if len(names) > 0 {
		best = mode(names, []string{OneFOneB, Interleaved, GPipe, ZeroBubble})
	}
	ms, vs := map[int]int{}, map[int]int{}
	for _, s := range all {
		if s.Name == best && s.M > 0 {
			ms[s.M]++
			vs[s.V]++
		}
	}
	if len(ms) == 0 {
		return Schedule{Name: best}
	}
	return Schedule{Name: best, M: mode(ms, slices.Sorted(maps.Keys(ms))), V: mode(vs, slices.Sorted(maps.Keys(vs)))}
}

func mode[K comparable](count map[K]int, order []K) K {
	var best K
	n := -1
	for _, k := range order {
		if count[k] > n {
			best, n = k, count[k]
		}
	}
	return best
}

// IdealBubble is (p−1)/(v·m+p−1), the bubble fraction of a balanced
// pipeline with free communication (v = 1 for GPipe and 1F1B).
func IdealBubble(p, m, v int) float64 {
	if p <= 1 || m <= 0 {
		return 0
	}
	return float64(p-1) / float64(max(v, 1)*m+p-1)
}

// Count returns the forward and backward passes in ops (a weight-gradient
// half counts with its backward only when no whole backward is there) and
// the forwards before the first backward.
func Count(ops []Op) (fwd, bwd, warmup int) {
	seen := false
	for _, op := range ops {
		switch {
		case op.Phase == PhaseFwd:
			fwd++
			if !seen {
				warmup++
			}
		case op.Phase == PhaseBwd:
			bwd++
			seen = true
		}
	}
	return fwd, bwd, warmup
}

// FromLinks corrects the m and v of a schedule read from transfers alone
// by counting them, which needs no direction: each microbatch sends one
// activation and one gradient over every link it crosses, so stage 0 has
// 2·v·m transfers with stage 1 and, interleaved, 2·(v−1)·m with stage p−1
// (p > 2); another stage has 2·v·m with the stage before it. toPrev and
// toNext are the counts in one step; v stays as read unless stage 0 can
// tell it apart.
func FromLinks(s Schedule, g Geometry, toPrev, toNext, toLast int) Schedule {
	vm := toPrev / 2
	if g.Stage == 0 {
		vm = toNext / 2
	}
	if vm <= 0 {
		return s
	}
	if g.Stage == 0 && g.P > 2 && toLast > 0 && toLast < toNext {
		m := (toNext - toLast) / 2
		s.M, s.V = m, max(1, (vm+m/2)/m)
		return s
	}
	s.M = max(1, vm/max(s.V, 1))
	return s
}
