package pipeline

import (
	"testing"

	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/model"
)

// p2pTrace builds a 2-stage job whose ranks carry pipeline send/recv
// kernels and compute kernels: rows are (rank, 0 recv | 1 send | 2 forward
// kernel | 3 backward kernel, start, end).
func p2pTrace(rows [][4]int64) *model.Trace {
	tr := &model.Trace{}
	for r := int32(0); r < 2; r++ {
		c := model.UnknownCoord
		c.PP = r
		tr.AddRank(model.Rank{Rank: r, Coord: c})
	}
	comm := tr.AddComm(model.Communicator{ID: "pp", Members: []int32{0, 1}, Axis: model.AxisPP})
	for _, row := range rows {
		if row[1] >= 2 { // a compute kernel: 2 forward-named, 3 backward-named
			name := map[int64]string{2: "sm90_gemm_fwd", 3: "flash_bwd_kernel"}[row[1]]
			tr.AddEvent(model.NewEvent(int32(row[0]), model.KindCompute, tr.Names.Intern(name), row[2], row[3]-row[2]))
			continue
		}
		op := model.OpRecv
		if row[1] == 1 {
			op = model.OpSend
		}
		coll := tr.Colls.Append(model.Collective{Op: op, Bytes: 1, Comm: comm, Seq: -1, Peer: -1, GroupSize: 2})
		e := model.NewEvent(int32(row[0]), model.KindComm, tr.Names.Intern("ncclDevKernel_SendRecv"), row[2], row[3]-row[2])
		e.Coll = coll
		tr.AddEvent(e)
	}
	tr.Events.Sort()
	return tr
}

func TestP2POps1F1B(t *testing.T) {
	tr := p2pTrace([][4]int64{
		{0, 1, 10, 12}, {0, 1, 22, 24}, {0, 0, 30, 32}, {0, 1, 44, 46}, {0, 0, 50, 52}, {0, 0, 62, 64},
		{0, 2, 0, 10}, {0, 2, 12, 22}, {0, 3, 32, 38}, {0, 2, 38, 44}, {0, 3, 52, 60}, {0, 3, 64, 70},
		{1, 0, 0, 2}, {1, 1, 20, 22}, {1, 0, 24, 26}, {1, 1, 40, 42}, {1, 0, 44, 46}, {1, 1, 60, 62},
		{1, 2, 2, 10}, {1, 3, 10, 20}, {1, 2, 26, 32}, {1, 3, 32, 40}, {1, 2, 46, 52}, {1, 3, 52, 60},
	})
	stageOf := func(r int32) int { return int(r) }
	want := []string{"FFBFBB", "FBFBFB"}
	for r := int32(0); r < 2; r++ {
		g := Geometry{Stage: int(r), P: 2, StageOf: stageOf}
		rk := ForRank(tr, r, g)
		got := ""
		for _, op := range rk.Ops {
			got += map[Phase]string{PhaseFwd: "F", PhaseBwd: "B"}[op.Phase]
		}
		if rk.Source != FromP2P || got != want[r] {
			t.Fatalf("rank %d: ops %q from %d, want %q from p2p", r, got, rk.Source, want[r])
		}
		if r == 1 && (rk.Ops[0].Start != 2 || rk.Ops[0].End != 10 || rk.Ops[1].Start != 10 || rk.Ops[1].End != 20) {
			t.Errorf("last stage: first forward %+v and backward %+v, want [2,10) and [10,20) (cut at the backward-named kernel)", rk.Ops[0], rk.Ops[1])
		}
		ops, ring := rk.In(measure.Interval{Start: 0, End: 100})
		if s := Detect(ops, ring, g); s != (Schedule{OneFOneB, 3, 1}) {
			t.Errorf("rank %d: Detect = %+v, want 1f1b m=3", r, s)
		}
	}
}

func TestAnnotationOpsAndSplit(t *testing.T) {
	tr := &model.Trace{}
	tr.AddRank(model.Rank{Rank: 0, Coord: model.UnknownCoord})
	for _, a := range []struct {
		name       string
		start, end int64
	}{{"forward_step#0", 10, 20}, {"backward_step#0", 30, 40}, {"forward_step#1", 50, 60}, {"backward_step#1", 70, 80}} {
		tr.AddEvent(model.NewEvent(0, model.KindGPUAnnotation, tr.Names.Intern(a.name), a.start, a.end-a.start))
	}
	tr.Events.Sort()
	rk := ForRank(tr, 0, Geometry{Stage: 0, P: 2, StageOf: func(int32) int { return -1 }})
	if rk.Source != FromAnnotations || len(rk.Ops) != 4 || rk.Ops[2].Micro != 1 || rk.Ops[3].Phase != PhaseBwd {
		t.Fatalf("ops = %+v (source %d)", rk.Ops, rk.Source)
	}
	w := measure.Interval{Start: 0, End: 100}
	bub := set(0, 10, 20, 30, 40, 50, 60, 70, 80, 100)
	fd, st, ok := Split(bub, rk.Ops, w)
	if !ok || fd != 50 || st != 10 {
		t.Errorf("Split = %d fill/drain, %d steady, %v; want 50, 10", fd, st, ok)
	}
	f, b := PhaseCompute(set(10, 20, 30, 40, 50, 60, 70, 80), rk.Ops, w)
	if f != 20 || b != 20 {
		t.Errorf("PhaseCompute = %d, %d; want 20, 20", f, b)
	}
}

func TestParseAnnotation(t *testing.T) {
	for _, c := range []struct {
		in        string
		ph        Phase
		mb, chunk int32
		ok        bool
	}{
		{"forward_step#3", PhaseFwd, 3, -1, true}, {"backward_step#12", PhaseBwd, 12, -1, true},
		{"forward_step#3 chunk 1", PhaseFwd, 3, 1, true}, {"ProfilerStep#3", PhaseUnknown, -1, -1, false},
	} {
		ph, mb, ch, ok := parseAnnotation(c.in)
		if ph != c.ph || mb != c.mb || ch != c.chunk || ok != c.ok {
			t.Errorf("parseAnnotation(%q) = %v %d %d %v", c.in, ph, mb, ch, ok)
		}
	}
}

// set builds a Set from start, end pairs.
func set(b ...int64) measure.Set {
	var s measure.Set
	for i := 0; i+1 < len(b); i += 2 {
		s = append(s, measure.Interval{Start: b[i], End: b[i+1]})
	}
	return s
}
