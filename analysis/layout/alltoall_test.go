package layout

import (
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// a2aJob: 8 ranks, 2 steps, a TP2 busy all-reduce class and two groups of
// 4 (ranks 0,2,4,6 and 1,3,5,7) that run a2a all-to-alls per step each.
func a2aJob(a2a int) (*model.Trace, []int32) {
	j := newLayoutJob(8, 8, 2)
	for r := int32(0); r < 8; r += 2 {
		j.kernels(j.comm("tp"+string('0'+rune(r)), "", []int32{r, r + 1}), model.OpAllReduce, 64, nil, nil)
	}
	ids := []int32{j.comm("x0", "", []int32{0, 2, 4, 6}), j.comm("x1", "", []int32{1, 3, 5, 7})}
	for _, id := range ids {
		j.kernels(id, model.OpAllToAll, 2*a2a, nil, nil)
	}
	return j.done(), ids
}

// TestAllToAllGroupIsEPOnlyWithPerLayerTraffic: a group of mostly
// all-to-all is EP when it runs at least 16 per member and step (MoE
// dispatch and combine, per layer), else A2A (an embedding exchange); A2A
// takes no layout size.
func TestAllToAllGroupIsEPOnlyWithPerLayerTraffic(t *testing.T) {
	for _, c := range []struct {
		perStep int
		axis    model.Axis
		ep      int
	}{{4, model.AxisA2A, 1}, {32, model.AxisEP, 4}} {
		tr, ids := a2aJob(c.perStep)
		l, err := Infer(tr, Flags{})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if got := tr.Comms[id].Axis; got != c.axis {
				t.Errorf("%d all-to-alls per step: %s is %v, want %v", c.perStep, tr.Comms[id].ID, got, c.axis)
			}
		}
		if l.EP != c.ep || l.TP != 2 {
			t.Errorf("%d all-to-alls per step: layout %+v, want TP2 EP%d", c.perStep, l, c.ep)
		}
	}
}

// TestEmbeddingAllToAllOffTheWorldGroup: a lone world group running the
// gradient all-reduce and a few all-to-alls per step keeps its all-reduces
// (DP); its all-to-alls move to "<id>/all_to_all", A2A, same members.
// With per-layer all-to-alls (MoE-like) the group is left whole.
func TestEmbeddingAllToAllOffTheWorldGroup(t *testing.T) {
	for _, c := range []struct {
		a2a   int
		split bool
	}{{3, true}, {40, false}} {
		j := newLayoutJob(4, 4, 1)
		w := j.comm("default_pg_like", "", allRanks(4))
		j.kernels(w, model.OpAllReduce, 2, nil, nil)
		j.kernels(w, model.OpAllToAll, c.a2a, nil, nil)
		tr := j.done()
		l, err := Infer(tr, Flags{})
		if err != nil || l.DP != 4 {
			t.Fatalf("Infer = %+v, %v; want DP4", l, err)
		}
		if got := len(tr.Comms) == 2; got != c.split {
			t.Fatalf("%d all-to-alls: comms %+v, split %v", c.a2a, tr.Comms, c.split)
		}
		for i := range tr.Colls.Len() {
			want := w
			if c.split && tr.Colls.Op[i] == model.OpAllToAll {
				want = 1
			}
			if tr.Colls.Comm[i] != want {
				t.Fatalf("%d all-to-alls: row %d (%v) on comm %d, want %d", c.a2a, i, tr.Colls.Op[i], tr.Colls.Comm[i], want)
			}
		}
		if c.split && (tr.Comms[1].Axis != model.AxisA2A || tr.Comms[1].ID != "default_pg_like/all_to_all" || len(tr.Comms[1].Members) != 4) {
			t.Errorf("split part %+v, want A2A of the 4 ranks", tr.Comms[1])
		}
	}
}

// TestFlagsKeepEmbeddingAllToAll: --dp 4 relabels groups by the layout,
// but an A2A group stays A2A (it is not the DP gradient sync).
func TestFlagsKeepEmbeddingAllToAll(t *testing.T) {
	j := newLayoutJob(4, 4, 1)
	w := j.comm("pg", "", allRanks(4))
	j.kernels(w, model.OpAllReduce, 2, nil, nil)
	j.kernels(w, model.OpAllToAll, 3, nil, nil)
	tr := j.done()
	if _, err := Infer(tr, Flags{DP: 4}); err != nil {
		t.Fatal(err)
	}
	if tr.Comms[0].Axis != model.AxisDP || tr.Comms[1].Axis != model.AxisA2A {
		t.Errorf("comms %+v; want DP and A2A", tr.Comms)
	}
}
