package pipeline

import (
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// TestParseEveryConvention: each per-microbatch convention of
// dialects.md gives its phase and microbatch; other ranges do not parse.
func TestParseEveryConvention(t *testing.T) {
	for _, c := range []struct {
		in    string
		conv  string
		ph    Phase
		mb    int32
		stage int32
		ok    bool
	}{
		{"PP:0F3", ConvPipelining, PhaseFwd, 3, 0, true},
		{"PP:5B2", ConvPipelining, PhaseBwd, 2, 5, true},
		{"PP:1I0", ConvPipelining, PhaseBwd, 0, 1, true},
		{"PP:1W7", ConvPipelining, PhaseW, 7, 1, true},
		{"PP:0SEND_F3", "", PhaseUnknown, 0, 0, false},
		{"Forward 3", ConvForward, PhaseFwd, 3, -1, true},
		{"Backward 12", ConvForward, PhaseBwd, 12, -1, true},
		{"Forward pass", "", PhaseUnknown, 0, 0, false},
		{"forward_step#4", ConvStep, PhaseFwd, 4, -1, true},
		{"ProfilerStep#3", "", PhaseUnknown, 0, 0, false},
	} {
		a, ok := parseAny(c.in)
		if ok != c.ok || ok && (a.conv != c.conv || a.ph != c.ph || a.micro != c.mb || a.stage != c.stage) {
			t.Errorf("parseAny(%q) = %+v %v, want %s %v mb %d stage %d %v", c.in, a, ok, c.conv, c.ph, c.mb, c.stage, c.ok)
		}
	}
}

// TestPipeliningStagesBecomeChunks: a rank running stages 1 and 5 of a
// looped schedule (p = 4) reads them as model chunks 0 and 1, and the
// order gives interleaved with v = 2.
func TestPipeliningStagesBecomeChunks(t *testing.T) {
	tr := &model.Trace{}
	tr.AddRank(model.Rank{Rank: 0, Coord: model.UnknownCoord})
	names := []string{"PP:1F0", "PP:1F1", "PP:5F0", "PP:5F1", "PP:5B0", "PP:1B0", "PP:5B1", "PP:1B1"}
	for i, n := range names {
		tr.AddEvent(model.NewEvent(0, model.KindGPUAnnotation, tr.Names.Intern(n), int64(10*i), 5))
	}
	tr.Events.Sort()
	rk := ForRank(tr, 0, Geometry{Stage: 1, P: 4, StageOf: func(int32) int { return -1 }})
	if rk.Cue() != "annotations ("+ConvPipelining+")" || len(rk.Ops) != 8 {
		t.Fatalf("cue %q, %d ops", rk.Cue(), len(rk.Ops))
	}
	for i, want := range []int32{0, 0, 1, 1, 1, 0, 1, 0} {
		if rk.Ops[i].Chunk != want {
			t.Errorf("op %d (%s): chunk %d, want %d", i, names[i], rk.Ops[i].Chunk, want)
		}
	}
	if s := Detect(rk.Ops, 0, Geometry{Stage: 1, P: 4}); s.Name != Interleaved || s.M != 2 || s.V != 2 {
		t.Errorf("Detect = %+v, want interleaved m=2 v=2", s)
	}
}

// TestWeightPassesNameZeroBubble: separate W passes name the schedule.
func TestWeightPassesNameZeroBubble(t *testing.T) {
	ops := []Op{{Phase: PhaseFwd, Micro: 0}, {Phase: PhaseFwd, Micro: 1}, {Phase: PhaseBwd, Micro: 0}, {Phase: PhaseW, Micro: 0},
		{Phase: PhaseBwd, Micro: 1}, {Phase: PhaseW, Micro: 1}}
	if s := Detect(ops, 0, Geometry{Stage: 0, P: 2}); s.Name != ZeroBubble || s.M != 2 {
		t.Errorf("Detect = %+v, want zero-bubble m=2", s)
	}
	if f, b, w := Count(ops); f != 2 || b != 2 || w != 2 {
		t.Errorf("Count = %d %d %d, want 2 2 2", f, b, w)
	}
}

// TestVoteKeepsMWhenNoScheduleFits: ranks whose order fits no known
// schedule still give m.
func TestVoteKeepsMWhenNoScheduleFits(t *testing.T) {
	got := Vote([]Schedule{{Unknown, 6, 1}, {Unknown, 6, 1}, {Unknown, 5, 1}})
	if got.Name != Unknown || got.M != 6 {
		t.Errorf("Vote = %+v, want unknown m=6", got)
	}
	if got := Vote(nil); got.Name != Unknown || got.M != 0 {
		t.Errorf("Vote(nil) = %+v", got)
	}
}

// TestAutogradContextGivesPhases: kernels launched on the autograd
// engine's thread, or inside an evaluate_function op, are backward; a PP
// transfer launched between two forwards splits them into two passes.
func TestAutogradContextGivesPhases(t *testing.T) {
	tr := &model.Trace{}
	tr.AddRank(model.Rank{Rank: 0, Coord: model.UnknownCoord})
	main := tr.AddStream(model.Stream{Rank: 0, ID: 1, Device: -1, Name: "thread 1 (python)"})
	grad := tr.AddStream(model.Stream{Rank: 0, ID: 2, Device: -1, Name: "thread 2 (pt_autograd_0)"})
	gpu := tr.AddStream(model.Stream{Rank: 0, GPU: true, ID: 7})
	corr := int64(0)
	launch := func(th int32, at int64, kind model.Kind, name string, kstart int64) {
		corr++
		l := model.NewEvent(0, model.KindRuntime, tr.Names.Intern("cudaLaunchKernel"), at, 1)
		l.Stream, l.Corr = th, corr
		tr.AddEvent(l)
		k := model.NewEvent(0, kind, tr.Names.Intern(name), kstart, 10)
		k.Stream, k.Corr = gpu, corr
		if kind == model.KindComm {
			k.Coll = tr.Colls.Append(model.NewCollective(model.OpSendRecv))
		}
		tr.AddEvent(k)
	}
	launch(main, 0, model.KindCompute, "gemm", 100)
	launch(main, 2, model.KindComm, "ncclDevKernel_SendRecv", 110)
	launch(main, 4, model.KindCompute, "gemm", 120)
	launch(grad, 6, model.KindCompute, "gemm", 130)
	ev := model.NewEvent(0, model.KindCPUOp, tr.Names.Intern("autograd::engine::evaluate_function: MmBackward0"), 7, 3)
	ev.Stream = main
	tr.AddEvent(ev)
	launch(main, 8, model.KindCompute, "gemm", 140)
	tr.Events.Sort()
	rk := ForRank(tr, 0, Geometry{Stage: 0, P: 2, StageOf: func(int32) int { return -1 }})
	got := ""
	for _, op := range rk.Ops {
		got += op.Phase.String() + " "
	}
	if rk.Source != FromAutograd || got != "fwd fwd bwd " {
		t.Errorf("ops %q from %v, want 'fwd fwd bwd ' from autograd", got, rk.Source)
	}
}

// TestFromLinksCountsTransfers: m and v from transfer counts alone.
func TestFromLinksCountsTransfers(t *testing.T) {
	for _, c := range []struct {
		g                      Geometry
		prev, next, last, m, v int
	}{
		{Geometry{Stage: 0, P: 4}, 0, 32, 16, 8, 2}, // interleaved v=2 m=8: 2vm with stage 1, 2(v−1)m with stage 3
		{Geometry{Stage: 0, P: 4}, 0, 16, 0, 8, 1},  // 1F1B m=8
		{Geometry{Stage: 2, P: 4}, 16, 16, 0, 8, 1}, // a middle stage
		{Geometry{Stage: 1, P: 2}, 16, 16, 16, 8, 1},
	} {
		got := FromLinks(Schedule{Name: OneFOneB, M: 5, V: 1}, c.g, c.prev, c.next, c.last)
		if got.M != c.m || got.V != c.v {
			t.Errorf("FromLinks(stage %d of %d, %d %d %d) = m %d v %d, want %d %d", c.g.Stage, c.g.P, c.prev, c.next, c.last, got.M, got.V, c.m, c.v)
		}
	}
}
