package diagnose

import (
	"math"
	"slices"

	"github.com/tpptrace/tpptrace/model/vocab"
)

// median returns the median of xs (0 for none); xs is not modified.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// robustScore is |x − median| / (1.4826·MAD) over peers, with MAD floored
// at 1 % of the median (docs/semantics.md), and the median itself.
func robustScore(x float64, peers []float64) (score, med float64) {
	med = median(peers)
	dev := make([]float64, len(peers))
	for i, p := range peers {
		dev[i] = math.Abs(p - med)
	}
	mad := max(median(dev), 0.01*math.Abs(med))
	if mad == 0 {
		return 0, med
	}
	return math.Abs(x-med) / (1.4826 * mad), med
}

// fitAlphaBeta fits t = α + β·bytes by least squares. With fewer than two
// distinct sizes, β is 0 and α the mean time.
func fitAlphaBeta(bytes, ts []float64) (alpha, beta float64) {
	n := float64(len(bytes))
	if n == 0 {
		return 0, 0
	}
	var sx, sy, sxx, sxy float64
	for i := range bytes {
		sx, sy, sxx, sxy = sx+bytes[i], sy+ts[i], sxx+bytes[i]*bytes[i], sxy+bytes[i]*ts[i]
	}
	den := n*sxx - sx*sx
	if math.Abs(den) < 1e-9*max(1, n*sxx) {
		return sy / n, 0
	}
	beta = (n*sxy - sx*sy) / den
	return (sy - beta*sx) / n, beta
}

// Severity is the severity of a finding that costs share of the step.
func Severity(share float64) string { return vocab.SeverityOf(share) }

var severity = vocab.SeverityOf
