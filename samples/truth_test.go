package samples

import (
	"math"
	"testing"
)

// handConfig is TP1 PP2 DP1, m=2, one layer per stage, one step, no jitter,
// no CPU cost: every time below can be derived by hand.
func handConfig() Config {
	c := DefaultConfig()
	c.TP, c.PP, c.DP, c.Microbatches, c.LayersPerStage, c.Steps = 1, 2, 1, 2, 1, 1
	c.Jitter, c.StartSkewNs, c.StepGapNs, c.LaunchNs, c.LaunchLatencyNs, c.QueueDepth = 0, 0, 0, 0, 0, 1000
	c.FwdLayerNs, c.BwdRatio, c.LossNs, c.OptimizerNs = 100_000, 2, 10_000, 40_000
	c.ActivationBytes, c.NVLinkAlphaNs = 0, 10_000 // every p2p transfer takes 10 µs
	return c
}

// TestTruthByHand checks the truth of handConfig against figures derived by
// hand (µs; F = forward 100 per stage and microbatch, B = backward 200, loss
// 10 on stage 1, optimizer 40, p2p transfer 10, sync returns 12 after the
// last kernel and the step annotation ends 6 later):
//
// Rank 0 (stage 0, 1F1B warm-up 1: F0 F1 B0 B1): F0 [0,100) F1 [100,200);
// sends end at 110 and 210; recv B0 runs [0,430) (rank 1 sends B0 at 420),
// B0 [430,630); recv B1 [430,740), B1 [740,940); optimizer [940,980); window
// [0, 980+12+6=998). compute 640, PP comm |[0,740)| = 740, exposed PP =
// |[0,980)| − 640 = 340, idle 998−980 = 18, bubble 998−640 = 358, all of it
// fill/drain (the last forward ends before the first backward starts).
//
// Rank 1 (stage 1: F0 B0 F1 B1): recv F0 [0,110); F0+loss [110,220), B0
// [220,420), send B0 [420,430); recv F1 [110,210); F1+loss [420,530), B1
// [530,730), send B1 [730,740); optimizer [730,770); window [0,788).
// compute |[110,770)| = 660, PP |[0,210)|+10+10 = 230, exposed PP 770−660 =
// 110, idle 18, bubble 128: [0,110) before the first backward (220) and
// [770,788) after the last forward compute (530): all fill/drain.
func TestTruthByHand(t *testing.T) {
	j, err := Simulate(handConfig())
	if err != nil {
		t.Fatal(err)
	}
	tr := j.Truth
	type want struct{ step, compute, pp, exposed, idle, bubble, fill int64 }
	for r, w := range []want{{998, 640, 740, 340, 18, 358, 358}, {788, 660, 230, 110, 18, 128, 128}} {
		g := tr.Ranks[r]
		got := want{g.StepNs, g.ComputeNs, g.CommNs["PP"], g.ExposedNs["PP"], g.IdleNs, g.BubbleNs, g.FillDrainNs}
		for i := range 7 {
			if gv, wv := field(got, i), field(w, i)*1000; gv != wv {
				t.Errorf("rank %d figure %d (step, compute, pp, exposed, idle, bubble, fill): got %d ns, want %d", r, i, gv, wv)
			}
		}
		if frac := float64(w.bubble) / float64(w.step); math.Abs(g.BubbleFraction-frac) > 1e-6 {
			t.Errorf("rank %d bubble fraction %g, want %g", r, g.BubbleFraction, frac)
		}
		if len(g.CommNs) != 1 {
			t.Errorf("rank %d reports comm on %v; only PP exists", r, g.CommNs)
		}
	}
	if tr.StepNs != 998_000 || tr.BottleneckStage != 1 || tr.Stages[0].ComputeNs != 640_000 || math.Abs(tr.IdealBubble-1.0/3) > 1e-12 {
		t.Errorf("job: step %d bottleneck %d stage0 %d ideal %g; want 998000, 1, 640000, 1/3", tr.StepNs, tr.BottleneckStage, tr.Stages[0].ComputeNs, tr.IdealBubble)
	}
	if math.Abs(tr.StageImbalance-660.0/650) > 1e-6 || tr.SlowRank != -1 {
		t.Errorf("imbalance %g (want %g), slow rank %d (want -1)", tr.StageImbalance, 660.0/650, tr.SlowRank)
	}
}

func field(w struct{ step, compute, pp, exposed, idle, bubble, fill int64 }, i int) int64 {
	return [...]int64{w.step, w.compute, w.pp, w.exposed, w.idle, w.bubble, w.fill}[i]
}
