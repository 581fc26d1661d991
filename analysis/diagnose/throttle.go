package diagnose

import (
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/gpujoin"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

const remedyThrottle = "check the GPU's cooling, power delivery and XID errors (nvidia-smi -q, dmesg); drain the node if it persists"

// throttleFindings names every rank whose GPU shows a hardware slowdown
// or power-brake reason, or an XID, during the analysed steps, slow or
// not. They cost nothing of their own: a throttled GPU's lost time shows as
// its slow rank's (or its stage's) cost; severity is high for XIDs, else
// medium. lines holds the GPU evidence per rank.
func throttleFindings(fig *Figures, lines map[int]result.Statement) []result.Finding {
	var fs []result.Finding
	for _, r := range fig.Ranks {
		g := r.GPU
		if g == nil || (g.ClockReasons&gpujoin.HWSlowdown == 0 && len(g.XIDs) == 0) {
			continue
		}
		f := result.Finding{Kind: vocab.KindGPUThrottle, Severity: vocab.SevMedium, Ranks: []int{r.Rank}, Stages: []int{r.PP}, Remedy: remedyThrottle,
			Headline: result.Say(vocab.SayThrottled, xidFigures(g.XIDs)...).About(r.Rank).Quoting("what", throttleWhat(g))}
		if len(g.XIDs) > 0 {
			f.Severity = vocab.SevHigh
		}
		if line, ok := lines[r.Rank]; ok {
			f.Evidence = append(f.Evidence, line)
		}
		if isSlow(fig, r.Rank) {
			f.Evidence = append(f.Evidence, result.Say(vocab.SayThrottleLost))
		}
		fs = append(fs, f)
	}
	return fs
}

func throttleWhat(g *result.GPUStats) string {
	var parts []string
	if t := gpujoin.ReasonText(g.ClockReasons & gpujoin.HWSlowdown); t != "" {
		parts = append(parts, t)
	}
	for _, x := range g.XIDs {
		parts = append(parts, fmt.Sprintf("XID %d", x))
	}
	return strings.Join(parts, ", ")
}

// xidFigures are a GPU's XIDs as figures named "xid".
func xidFigures(xids []int32) []result.Figure {
	var out []result.Figure
	for _, x := range xids {
		out = append(out, result.Count("xid", int64(x)))
	}
	return out
}

func isSlow(fig *Figures, rank int) bool {
	for _, s := range fig.SlowRanks {
		if s.Rank == rank {
			return true
		}
	}
	return false
}
