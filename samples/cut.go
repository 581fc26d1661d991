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

// truthRange is the steps the truth covers, as indexes [lo, hi): every
// step complete on every rank (all of them, or all but the cut last one),
// from TruthFrom on.
func (c *Config) truthRange() (lo, hi int) {
	hi = c.Steps
	if c.CutLastStep {
		hi--
	}
	return min(max(c.TruthFrom, 0), hi-1), hi
}
