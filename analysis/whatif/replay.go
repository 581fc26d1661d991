package whatif

import "math"

// clampEps is the tolerance below which a negative launch delay or
// transfer is an inconsistency of the recorded clocks (−10 ms): such
// values become 0; smaller negative values are kept.
const clampEps = 1e-2

// Times are the per-op inputs of one replay.
type Times struct {
	Dur, Xfer, Delay []float64
	Solo             []bool // per op (nil: none): a group member that no longer waits for its group
}

// Measured returns the recorded durations, transfers and launch delays
// (the inputs that must reproduce the trace).
func (g *Graph) Measured() Times { return Times{Dur: g.Dur, Xfer: g.Xfer, Delay: g.Delay} }

// NoDelay returns the measured durations and transfers with no launch delays.
func (g *Graph) NoDelay() Times {
	return Times{Dur: g.Dur, Xfer: g.Xfer, Delay: make([]float64, g.Len())}
}

// measure derives Dur, Xfer and Delay from the recorded Start and End.
func (g *Graph) measure() {
	n := g.Len()
	g.Dur, g.Xfer, g.Delay = make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		g.Dur[i] = g.End[i] - g.Start[i]
	}
	for k := range int32(g.nGroups) {
		latest := math.Inf(-1)
		for _, m := range g.Members(k) {
			latest = max(latest, g.Start[m])
		}
		for _, m := range g.Members(k) {
			g.Xfer[m] = clampNeg(g.End[m] - latest)
		}
	}
	origin := g.stepOrigins()
	for i := range int32(n) {
		ready := origin[g.Step[i]]
		if p := g.Preds(i); len(p) > 0 {
			ready = g.latestEnd(p, g.End)
		}
		g.Delay[i] = clampNeg(g.Start[i] - ready)
	}
}

func clampNeg(v float64) float64 {
	if v <= -clampEps {
		return 0
	}
	return v
}

// stepOrigins is the earliest recorded start of each step.
func (g *Graph) stepOrigins() []float64 {
	o := make([]float64, len(g.Steps))
	for i := range o {
		o[i] = math.Inf(1)
	}
	for i, s := range g.Step {
		o[s] = min(o[s], g.Start[i])
	}
	return o
}

func (g *Graph) latestEnd(ops []int32, end []float64) float64 {
	t := math.Inf(-1)
	for _, p := range ops {
		t = max(t, end[p])
	}
	return t
}

// Replay runs the graph with t and returns each op's start and end,
// seconds from its step's start (sources start at their launch delay).
func (g *Graph) Replay(t Times) (start, end []float64) {
	start, end = make([]float64, g.Len()), make([]float64, g.Len())
	for _, v := range g.order {
		if v >= 0 {
			start[v] = g.ready(v, end) + t.Delay[v]
			end[v] = start[v] + t.Dur[v]
			continue
		}
		ms := g.Members(-v - 1)
		latest := math.Inf(-1)
		for _, m := range ms {
			start[m] = g.ready(m, end) + t.Delay[m]
			if !t.solo(m) {
				latest = max(latest, start[m])
			}
		}
		for _, m := range ms {
			if t.solo(m) {
				end[m] = start[m] + t.Xfer[m]
			} else {
				end[m] = latest + t.Xfer[m]
			}
		}
	}
	return start, end
}

func (g *Graph) ready(i int32, end []float64) float64 {
	if p := g.Preds(i); len(p) > 0 {
		return g.latestEnd(p, end)
	}
	return 0
}

// StepTimes returns each step's time: last end − first start of its ops.
func (g *Graph) StepTimes(start, end []float64) []float64 {
	lo, hi := make([]float64, len(g.Steps)), make([]float64, len(g.Steps))
	for i := range lo {
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
	}
	for i, s := range g.Step {
		lo[s] = min(lo[s], start[i])
		hi[s] = max(hi[s], end[i])
	}
	for i := range lo {
		hi[i] -= lo[i]
	}
	return hi
}

// StepTime replays t and returns the per-step times and their mean.
func (g *Graph) StepTime(t Times) ([]float64, float64) {
	st := g.StepTimes(g.Replay(t))
	return st, mean(st)
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func (t Times) solo(i int32) bool { return t.Solo != nil && t.Solo[i] }
