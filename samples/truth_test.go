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
	c.EndSkewNs = 0                                // both ends of a transfer end together
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
	wants := []handFigures{{998, 640, 740, 340, 18, 358, 358}, {788, 660, 230, 110, 18, 128, 128}}
	checkHandFigures(t, tr, wants)
	for r, w := range wants {
		g := tr.Ranks[r]
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

// handFigures are a rank's figures worked out by hand, in µs.
type handFigures struct{ step, compute, pp, exposed, idle, bubble, fill int64 }

// checkHandFigures compares rank r's truth with wants[r] for every r.
func checkHandFigures(t *testing.T, tr Truth, wants []handFigures) {
	t.Helper()
	for r, w := range wants {
		g := tr.Ranks[r]
		got := handFigures{g.StepNs, g.ComputeNs, g.CommNs["PP"], g.ExposedNs["PP"], g.IdleNs, g.BubbleNs, g.FillDrainNs}
		for i := range 7 {
			if gv, wv := field(got, i), field(w, i)*1000; gv != wv {
				t.Errorf("rank %d figure %d (step, compute, pp, exposed, idle, bubble, fill): got %d ns, want %d", r, i, gv, wv)
			}
		}
	}
}

func field(w handFigures, i int) int64 {
	return [...]int64{w.step, w.compute, w.pp, w.exposed, w.idle, w.bubble, w.fill}[i]
}

// TestInterleavedTruthByHand checks an interleaved pipeline of p=2, v=2,
// m=2 (handConfig with one layer per model chunk: F = 100 per chunk, B = 200,
// loss 10 after stage 1's chunk 1, optimizer 80, p2p 10). Stage 0 warms up
// with all 4 forwards, (0,c0) (1,c0) (0,c1) (1,c1), then backwards (0,c1)
// (1,c1) (0,c0) (1,c0); stage 1 runs F(0,c0) F(1,c0) F(0,c1) B(0,c1) F(1,c1)
// B(1,c1) B(0,c0) B(1,c0).
//
// Rank 0: F [0,100) [100,200); recv (0,c1) from stage 1 ends 220, F
// [220,320) [320,420); grads: B(0,c1) [650,850), B(1,c1) [960,1160), B(0,c0)
// [1160,1360), B(1,c0) [1380,1580) (rank 1 sends it at 1370), optimizer
// [1580,1660); window [0,1678). compute 1280, PP |[0,1380)|, exposed
// 1660−1280 = 380, idle 18, bubble 398, all fill/drain (last forward 420 <
// first backward 650).
//
// Rank 1: F(0,c0) [110,210), F(1,c0) [210,310), F(0,c1)+loss [330,440),
// B(0,c1) [440,640), F(1,c1)+loss [640,750), B(1,c1) [750,950), B(0,c0)
// [950,1150), B(1,c0) [1170,1370), optimizer [1370,1450); window [0,1468).
// compute 1300; bubble [0,110) [310,330) [1150,1170) [1450,1468) = 168, all
// before the first backward (440) or after the last forward (750); PP
// |[0,1170)| + the last send [1370,1380) = 1180, exposed 1450−1300 = 150.
func TestInterleavedTruthByHand(t *testing.T) {
	c := handConfig()
	c.Schedule, c.VirtualStages, c.LayersPerStage = ScheduleInterleaved, 2, 2
	j, err := Simulate(c)
	if err != nil {
		t.Fatal(err)
	}
	tr := j.Truth
	checkHandFigures(t, tr, []handFigures{{1678, 1280, 1380, 380, 18, 398, 398}, {1468, 1300, 1180, 150, 18, 168, 168}})
	if tr.Schedule != ScheduleInterleaved || tr.VirtualStages != 2 || tr.StepNs != 1_678_000 || tr.IdealBubble != 0.2 || tr.BottleneckStage != 1 {
		t.Errorf("job: schedule %q v=%d step %d ideal %g bottleneck %d; want interleaved, 2, 1678000, 0.2, 1",
			tr.Schedule, tr.VirtualStages, tr.StepNs, tr.IdealBubble, tr.BottleneckStage)
	}
}

// TestInterleavedOrderIsMegatrons compares the pass order of p=4, v=2, m=8
// with Megatron-LM's: stage 0 warms up with (4−0−1)·2 + (2−1)·4 = 10
// forwards, stage 3 with 4; virtual microbatch k is chunk (k mod 8) div 4 of
// microbatch (k div 8)·4 + k mod 4.
func TestInterleavedOrderIsMegatrons(t *testing.T) {
	c := DefaultConfig()
	c.Schedule, c.VirtualStages = ScheduleInterleaved, 2
	for s, warm := range []int{10, 8, 6, 4} {
		order := microOrder(&c, s)
		if len(order) != 32 {
			t.Fatalf("stage %d: %d passes, want 32", s, len(order))
		}
		k := 0
		for k < len(order) && order[k].fwd {
			k++
		}
		if k != warm+1 {
			t.Errorf("stage %d: %d forwards before the first backward, want %d warm-up + 1", s, k, warm)
		}
	}
	o := microOrder(&c, 0)
	wantF := []pass{{true, 0, 0}, {true, 1, 0}, {true, 2, 0}, {true, 3, 0}, {true, 0, 1}, {true, 1, 1}, {true, 2, 1}, {true, 3, 1}, {true, 4, 0}}
	for i, w := range wantF {
		if o[i] != w {
			t.Errorf("stage 0 pass %d = %+v, want %+v", i, o[i], w)
		}
	}
	if first := o[11]; first != (pass{false, 0, 1}) {
		t.Errorf("stage 0's first backward %+v, want microbatch 0 of chunk 1", first)
	}
}
