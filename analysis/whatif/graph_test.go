package whatif

import (
	"errors"
	"math"
	"testing"
)

// twoWorkers is a tiny job: worker 0 computes 1 s then sends; worker 1
// starts 0.5 s late, computes 2 s, then receives; the send/recv pair ends
// 0.25 s after both have started.
func twoWorkers(t *testing.T) *Graph {
	g := &Graph{Steps: []int64{7}, Workers: []Worker{{0, 0, 0}, {1, 0, 1}}}
	c, s := g.TypeID(FwdCompute), g.TypeID(FwdSend)
	r := g.TypeID(FwdRecv)
	a := g.AddOp(c, 0, 0, 0, 1)
	snd := g.AddOp(s, 0, 0, 1, 2.75)
	b := g.AddOp(c, 1, 0, 0.5, 2.5)
	rcv := g.AddOp(r, 1, 0, 2.5, 2.75)
	g.AddEdge(a, snd)
	g.AddEdge(b, rcv)
	g.AddGroup(snd, rcv)
	if err := g.Finish(); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestMeasureAndReplay(t *testing.T) {
	g := twoWorkers(t)
	if g.Delay[2] != 0.5 || g.Xfer[1] != 0.25 || g.Xfer[3] != 0.25 {
		t.Fatalf("delay %v xfer %v", g.Delay, g.Xfer)
	}
	if abs, _ := g.SelfCheck(); abs > 1e-12 {
		t.Fatalf("self-check %g", abs)
	}
	st, _ := g.StepTime(g.NoDelay())
	if math.Abs(st[0]-2.25) > 1e-12 {
		t.Fatalf("no-delay step %g, want 2.25", st[0])
	}
}

func TestCycle(t *testing.T) {
	g := &Graph{Steps: []int64{0}, Workers: []Worker{{}}}
	a := g.AddOp(0, 0, 0, 0, 1)
	b := g.AddOp(0, 0, 0, 1, 2)
	g.AddEdge(a, b)
	g.AddEdge(b, a)
	if err := g.Finish(); !errors.Is(err, ErrCycle) {
		t.Fatalf("err %v, want ErrCycle", err)
	}
}

// TestBreakCycles: two groups whose members wait for each other in
// opposite orders on two workers form a cycle; BreakCycles dissolves them
// and the replay still reproduces the recording.
func TestBreakCycles(t *testing.T) {
	g := &Graph{Steps: []int64{0}, Workers: []Worker{{0, 0, 0}, {1, 1, 0}}, BreakCycles: true}
	a0 := g.AddOp(0, 0, 0, 0, 1)
	b0 := g.AddOp(0, 0, 0, 1, 2)
	b1 := g.AddOp(0, 1, 0, 0, 1)
	a1 := g.AddOp(0, 1, 0, 1, 2)
	g.AddEdge(a0, b0)
	g.AddEdge(b1, a1)
	g.AddGroup(a0, a1)
	g.AddGroup(b0, b1)
	if err := g.Finish(); err != nil {
		t.Fatal(err)
	}
	if g.Dissolved != 2 || len(g.Members(0))+len(g.Members(1)) != 0 {
		t.Fatalf("dissolved %d groups, want both", g.Dissolved)
	}
	if abs, _ := g.SelfCheck(); abs > 1e-12 {
		t.Fatalf("self-check %g", abs)
	}
}

// TestNoSlowdownNoNaN: a job with nothing to fix has M_W = M_S = 0, not NaN.
func TestNoSlowdownNoNaN(t *testing.T) {
	g := &Graph{Steps: []int64{0}, Workers: []Worker{{}}}
	g.AddOp(g.TypeID(FwdCompute), 0, 0, 0, 1)
	if err := g.Finish(); err != nil {
		t.Fatal(err)
	}
	r := Analyze(g)
	if r.MW.M != 0 || r.MS.M != 0 || r.S != 1 {
		t.Fatalf("M_W %g M_S %g S %g", r.MW.M, r.MS.M, r.S)
	}
}
