package measure

import (
	"testing"

	"github.com/tpptrace/tpptrace/analysis/clock"
	"github.com/tpptrace/tpptrace/model"
)

// handTrace builds one rank with a communicator per axis and the events
// listed as (kind, axis, start, end).
func handTrace(t *testing.T, rows [][4]int64) *model.Trace {
	t.Helper()
	tr := &model.Trace{}
	tr.AddRank(model.Rank{Rank: 0, Coord: model.UnknownCoord})
	for _, r := range rows {
		e := model.NewEvent(0, model.Kind(r[0]), tr.Names.Intern("k"), r[2], r[3]-r[2])
		if e.Kind == model.KindComm {
			ax := model.Axis(r[1])
			c := tr.AddComm(model.Communicator{ID: ax.String(), Members: []int32{0}, Axis: ax})
			e.Coll = tr.Colls.Append(model.Collective{Op: model.OpAllReduce, Bytes: -1, Comm: c, Seq: -1, Peer: -1, GroupSize: 1})
		}
		tr.AddEvent(e)
	}
	tr.Events.Sort()
	return tr
}

func TestMeasureHandComputed(t *testing.T) {
	C, M, K := int64(model.KindCompute), int64(model.KindComm), int64(model.KindMemcpy)
	tr := handTrace(t, [][4]int64{
		{C, 0, 0, 30}, {C, 0, 50, 60}, {C, 0, 98, 110}, {C, 0, 120, 130},
		{M, int64(model.AxisTP), 25, 40}, {M, int64(model.AxisPP), 60, 80}, {M, int64(model.AxisDP), 85, 95},
		{K, 0, 96, 98},
	})
	a := RankActivity(tr, 0)
	f := a.Measure(Interval{0, 100})
	checks := []struct {
		name      string
		got, want int64
	}{
		{"compute", f.Compute, 42}, {"memcpy", f.Memcpy, 2}, {"idle", f.Idle, 16}, {"bubble", f.Bubble, 38},
		{"comm TP", f.Comm[model.AxisTP], 15}, {"exposed TP", f.Exposed[model.AxisTP], 10},
		{"comm PP", f.Comm[model.AxisPP], 20}, {"exposed PP", f.Exposed[model.AxisPP], 20},
		{"comm DP", f.Comm[model.AxisDP], 10}, {"exposed DP", f.Exposed[model.AxisDP], 10},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	want := Set{{40, 50}, {60, 85}, {95, 98}}
	if len(f.Bubbles) != len(want) || f.Bubbles[1] != want[1] || f.Bubbles[2] != want[2] {
		t.Errorf("bubbles = %v, want %v", f.Bubbles, want)
	}
}

func TestCollectiveWaitAndTransfer(t *testing.T) {
	tr := &model.Trace{}
	c := tr.AddComm(model.Communicator{ID: "tp", Members: []int32{0, 1}, Axis: model.AxisTP})
	coll := tr.Colls.Append(model.Collective{Op: model.OpAllReduce, Bytes: 4096, Comm: c, Seq: 7, Peer: -1, GroupSize: 2})
	var evs []int32
	for r, st := range map[int32][2]int64{0: {10, 50}, 1: {130, 30}} {
		tr.AddRank(model.Rank{Rank: r, Coord: model.UnknownCoord})
		e := model.NewEvent(r, model.KindComm, tr.Names.Intern("ncclDevKernel_AllReduce"), st[0], st[1])
		e.Coll = coll
		tr.AddEvent(e)
	}
	tr.Events.Sort()
	for i := 0; i < tr.Events.Len(); i++ {
		evs = append(evs, int32(i))
	}
	off := func(r int32) int64 { return int64(r) * 100 }
	tm := Collectives(tr, []clock.Instance{{Comm: c, Seq: 7, Op: model.OpAllReduce, Events: evs}}, off)
	in := tm.Inst[0]
	if in.Last != 1 || in.Lateness != 20 || in.Transfer != 30 || in.LatestStart != 30 || in.Bytes != 4096 || in.Axis != model.AxisTP {
		t.Fatalf("instance = %+v", in)
	}
	m0, m1 := tm.Members[0], tm.Members[1]
	if m0.Rank != 0 || m0.Wait != 20 || m0.Transfer != 30 || m1.Wait != 0 || m1.Transfer != 30 {
		t.Fatalf("members = %+v %+v", m0, m1)
	}
}
