package samples

import "math"

// cutAt is when (true time) the capture of rank r ends: with CutLastStep,
// ranks of the upper half of the world stop half-way through their last
// step; otherwise never.
func (s *sim) cutAt(r int) int64 {
	c := s.cfg
	if !c.CutLastStep || r < c.World()/2 {
		return math.MaxInt64
	}
	st, k := &s.ranks[r], c.Steps-1
	return st.stepStart[k] + (st.stepEnd[k]-st.stepStart[k])/2
}

// truthSteps is the number of steps complete on every rank: all of them,
// or all but the cut last one.
func (c *Config) truthSteps() int {
	if c.CutLastStep {
		return c.Steps - 1
	}
	return c.Steps
}
