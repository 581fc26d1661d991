// Package gate decides whether a figure regressed: the registry of what
// can be gated (the compared figures of `tpptrace compare` and the finding
// kinds of `tpptrace analyze --fail-on`), the thresholds' syntax, and the
// one judgement both commands use. Help text and docs read the registry.
package gate

import "math"

// Units of judged figures.
const (
	UnitNs       = "ns"
	UnitFraction = "fraction"
	UnitBytes    = "bytes"
	UnitTokens   = "tokens/s"
	UnitNamed    = "named"
)

// Figure is one figure of two runs, as a gate judges it.
type Figure struct {
	Unit         string
	Base, New    float64
	HigherBetter bool    // tokens/s, MFU: a fall is a regression
	Floor        float64 // the least move, in Unit, that can count (noise of tiny figures)
	Spread       float64 // the runs' own step-to-step spread of the figure, in Unit; 0 if unknown
}

// Rule is a threshold: a relative growth (Rel, 0.05 = 5 %), or when Abs
// is set an absolute one in the figure's unit (ns, or a fraction for
// percentage points).
type Rule struct {
	Rel    float64
	Abs    float64
	HasAbs bool
}

// Moved is the change of f in its worse direction: positive when it got
// worse (grew, or fell for a HigherBetter figure).
func (f Figure) Moved() float64 {
	if f.HigherBetter {
		return f.Base - f.New
	}
	return f.New - f.Base
}

// Change is (New−Base)/Base, 0 when both are 0, ±1 from a Base of 0.
func (f Figure) Change() float64 {
	if f.Base == 0 {
		switch {
		case f.New == 0:
			return 0
		case f.New < 0:
			return -1
		}
		return 1
	}
	return (f.New - f.Base) / math.Abs(f.Base)
}

// Judge says whether f regressed or improved under r: it must move by
// more than the threshold, more than the floor and more than the spread.
func (r Rule) Judge(f Figure) (regressed, improved bool) {
	moved, need := f.Moved(), max(f.Floor, f.Spread)
	if r.HasAbs {
		need = max(need, r.Abs)
		return moved > need, -moved > need
	}
	c := f.Change()
	if f.HigherBetter {
		c = -c
	}
	return c > r.Rel && moved > need, c < -r.Rel && -moved > need
}
