package analysis

import (
	"math"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// configuredLink is the α (ns) and β (ns per byte) the generator uses for
// one class of a communicator's transfers (docs/generator.md: NVLink when
// every member shares a host, else the network; a ring all-reduce moves
// 2(n−1)/n of the buffer, reduce-scatter and all-gather (n−1)/n, a send one).
// The fit's transfer is the last arriver's kernel duration, which ends its
// own end skew (uniform in [0, EndSkewNs)) after the common end: the α a
// profiler sees is the configured one plus the mean skew, EndSkewNs/2.
func configuredLink(c *samples.Config, cs result.CommStats, l result.LinkFit) (alpha, beta float64) {
	alpha, bw := float64(c.NVLinkAlphaNs), c.NVLinkBps
	if l.Link == "inter-host" {
		alpha, bw = float64(c.NetAlphaNs), c.NetBps
	}
	alpha += float64(c.EndSkewNs) / 2
	n, f := float64(len(cs.Members)), 1.0
	switch l.Op {
	case "all_reduce":
		f = 2 * (n - 1) / n
	case "reduce_scatter", "all_gather":
		f = (n - 1) / n
	}
	return alpha, f / bw * 1e9
}

// TestAlphaBetaPerLinkRecoversLinks: the per-link fits of every
// communicator recover the generator's configured link within 15 % (β
// always; α where it is at least 10 % of the class's mean transfer, which
// jitter does not drown); a PP group spread over two hosts gets one fit
// per link, and its communicator-level fit is the dominant (NVLink) one.
func TestAlphaBetaPerLinkRecoversLinks(t *testing.T) {
	small := samples.DefaultConfig()
	small.TP, small.PP, small.DP, small.GPUsPerHost, small.LayersPerStage = 1, 2, 4, 2, 4
	small.GradBytesPerLayer, small.DPBuckets, small.Steps = 1<<20, 8, 8
	def := sampletest.Config(t, "default")
	for name, c := range map[string]samples.Config{"default": def, "small-buckets": small} {
		job := sampletest.Simulate(t, c)
		res := mustAnalyze(t, job.Trace)
		classes := map[string]int{}
		for _, cs := range res.Comms {
			for _, l := range cs.Links {
				classes[cs.Axis+" "+l.Link]++
				checkLinkFit(t, name, &c, cs, l)
			}
			if len(cs.Links) > 0 && (cs.AlphaNs != cs.Links[0].AlphaNs || cs.Links[0].Count < cs.Links[len(cs.Links)-1].Count) {
				t.Errorf("%s: communicator %s fit α %.0f, want its dominant class %+v", name, cs.ID, cs.AlphaNs, cs.Links)
			}
		}
		if name == "default" && (classes["PP intra-host"] == 0 || classes["PP inter-host"] == 0) {
			t.Errorf("default: link classes %v: want PP groups with both NVLink and network fits", classes)
		}
	}
}

func checkLinkFit(t *testing.T, job string, c *samples.Config, cs result.CommStats, l result.LinkFit) {
	t.Helper()
	wa, wb := configuredLink(c, cs, l)
	meanBytes := float64(cs.Bytes) / float64(max(cs.Count, 1))
	checkAlpha := wa >= 0.1*(wa+wb*meanBytes)
	if testing.Verbose() {
		t.Logf("%s: %s %s %s %s (%d): α %.0f ns β %.4g ns/B, configured %.0f, %.4g", job, cs.Axis, cs.ID, l.Link, l.Op, l.Count, l.AlphaNs, l.BetaNsPerByte, wa, wb)
	}
	if math.Abs(l.BetaNsPerByte-wb) > 0.15*wb || checkAlpha && math.Abs(l.AlphaNs-wa) > 0.15*wa {
		t.Errorf("%s: %s communicator %s, %s %s (%d instances): α %.0f ns β %.4g ns/B, configured %.0f, %.4g",
			job, cs.Axis, cs.ID, l.Link, l.Op, l.Count, l.AlphaNs, l.BetaNsPerByte, wa, wb)
	}
}
