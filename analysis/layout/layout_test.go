package layout

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// describedTP2PP2DP4: 16 ranks on 2 hosts with Megatron group descriptions.
func describedTP2PP2DP4() *layoutJob {
	j := newLayoutJob(16, 8, 2)
	for a, desc := range map[model.Axis]string{model.AxisTP: "TENSOR_MODEL_PARALLEL_GROUP",
		model.AxisPP: "PIPELINE_MODEL_PARALLEL_GROUP", model.AxisDP: "DATA_PARALLEL_GROUP"} {
		for i, g := range megatron(2, 2, 4, a) {
			j.kernels(j.comm(fmt.Sprintf("%v%d", a, i), desc, g), model.OpAllReduce, 1, nil, nil)
		}
	}
	j.comm("0", "default_pg", allRanks(16))
	return j
}

func checkMegatronCoords(t *testing.T, tr *model.Trace, tp, pp, dp int32) {
	t.Helper()
	for _, r := range tr.Ranks {
		want := model.Coord{TP: r.Rank % tp, DP: r.Rank / tp % dp, PP: r.Rank / (tp * dp), CP: 0, EP: 0}
		if r.Coord != want {
			t.Errorf("rank %d coord %+v, want %+v", r.Rank, r.Coord, want)
		}
	}
}

func TestInferFromDescriptions(t *testing.T) {
	tr := describedTP2PP2DP4().done()
	l, err := Infer(tr, Flags{})
	if err != nil || l.TP != 2 || l.PP != 2 || l.DP != 4 || l.By != "descriptions" || l.Order != "tp-cp-ep-dp-pp" {
		t.Fatalf("Infer = %+v, %v; want TP2 PP2 DP4 by descriptions", l, err)
	}
	if len(l.Problems) != 0 {
		t.Errorf("unexpected problems %+v", l.Problems)
	}
	checkMegatronCoords(t, tr, 2, 2, 4)
	for _, c := range tr.Comms {
		if c.ID == "0" && (c.Axis != model.AxisWorld || c.AxisBy != model.AxisByDescription) {
			t.Errorf("default_pg labelled %v by %v", c.Axis, c.AxisBy)
		}
	}
}

// trafficTP2PP2DP2: 8 ranks, no descriptions; TP groups run 40 all-reduces
// per step, DP groups 2 reduce-scatters; pipeline p2p kernels carry no
// communicator and no peer (batched p2p).
func trafficTP2PP2DP2(peers bool) *layoutJob {
	j := newLayoutJob(8, 4, 2)
	for i, g := range megatron(2, 2, 2, model.AxisTP) {
		j.kernels(j.comm(fmt.Sprintf("nccl-tp%d", i), "", g), model.OpAllReduce, 80, nil, nil)
	}
	for i, g := range megatron(2, 2, 2, model.AxisDP) {
		j.kernels(j.comm(fmt.Sprintf("nccl-dp%d", i), "", g), model.OpReduceScatter, 4, nil, nil)
	}
	var peer func(int32) int32
	if peers {
		peer = func(r int32) int32 { return (r + 4) % 8 }
	}
	j.kernels(-1, model.OpSendRecv, 6, allRanks(8), peer)
	return j
}

func TestInferFromTraffic(t *testing.T) {
	for _, peers := range []bool{false, true} {
		tr := trafficTP2PP2DP2(peers).done()
		l, err := Infer(tr, Flags{})
		if err != nil || l.TP != 2 || l.PP != 2 || l.DP != 2 || l.By != "traffic" {
			t.Fatalf("peers=%v: Infer = %+v, %v; want TP2 PP2 DP2 by traffic", peers, l, err)
		}
		checkMegatronCoords(t, tr, 2, 2, 2)
		for i := 0; i < tr.Events.Len(); i++ {
			c := tr.Events.Coll[i]
			if c < 0 || tr.Colls.Op[c] != model.OpSendRecv {
				continue
			}
			comm := tr.Colls.Comm[c]
			r := tr.Events.Rank[i]
			if comm < 0 || tr.Comms[comm].Axis != model.AxisPP || !slices.Equal(tr.Comms[comm].Members, []int32{r % 4, r%4 + 4}) {
				t.Fatalf("peers=%v: p2p kernel of rank %d attributed to comm %d", peers, r, comm)
			}
		}
	}
}

// TestInferPeerlessP2PChain: a 3-stage pipeline whose batched p2p kernels
// carry nothing; the middle stage's kernels serve both neighbours. Each
// rank has its own clock offset; ends coincide on the true clock.
func TestInferPeerlessP2PChain(t *testing.T) {
	j := newLayoutJob(3, 1, 1)
	offset := []int64{0, 100_000, -200_000}
	ends := map[int32][]int64{0: {1e6, 3e6}, 1: {1e6, 2e6, 3e6, 4e6}, 2: {2e6, 4e6}}
	for r, es := range ends {
		for _, e := range es {
			j.p2p(r, e+offset[r]-50_000, e+offset[r])
		}
	}
	tr := j.done()
	if _, err := Infer(tr, Flags{PP: 3}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < tr.Events.Len(); i++ {
		c := tr.Events.Coll[i]
		if c < 0 {
			continue
		}
		r, end := tr.Events.Rank[i], tr.Events.Start[i]+tr.Events.Dur[i]-offset[tr.Events.Rank[i]]
		want := []int32{0, 1} // kernels ending at 1 and 3 ms link stages 0 and 1
		if end == 2e6 || end == 4e6 {
			want = []int32{1, 2}
		}
		if m := tr.Comms[tr.Colls.Comm[c]].Members; !slices.Equal(m, want) {
			t.Errorf("rank %d kernel ending at %d on members %v, want %v", r, end, m, want)
		}
	}
}

func TestInferFlagsOverride(t *testing.T) {
	j := newLayoutJob(8, 8, 1)
	j.comm("a", "TENSOR_MODEL_PARALLEL_GROUP", []int32{0, 2}) // wrong description; flags win
	tr := j.done()
	l, err := Infer(tr, Flags{TP: 2, PP: 2, Order: "tp-pp-dp"})
	if err != nil || l.TP != 2 || l.PP != 2 || l.DP != 2 || l.By != "flags" || l.Order != "tp-pp-dp-cp-ep" {
		t.Fatalf("Infer = %+v, %v", l, err)
	}
	if c := tr.Ranks[2].Coord; c.TP != 0 || c.PP != 1 || c.DP != 0 {
		t.Errorf("rank 2 coord %+v, want tp0 pp1 dp0 under tp-pp-dp", c)
	}
	if c := tr.Comms[0]; c.Axis != model.AxisPP || c.AxisBy != model.AxisByFlag {
		t.Errorf("comm {0,2} labelled %v by %v, want PP by flag", c.Axis, c.AxisBy)
	}
	if _, err := Infer(tr, Flags{Order: "tp-xx"}); err == nil {
		t.Error("a bad order string must be an error")
	}
}

func TestInferTPAcrossHosts(t *testing.T) {
	j := newLayoutJob(8, 2, 1) // 2 GPUs per host, TP groups of 4
	for i, g := range [][]int32{{0, 1, 2, 3}, {4, 5, 6, 7}} {
		j.comm(fmt.Sprint("tp", i), "TENSOR_MODEL_PARALLEL_GROUP", g)
	}
	l, _ := Infer(j.done(), Flags{})
	if len(l.Problems) != 2 || l.Problems[0].Kind != "tp_across_hosts" || !slices.Equal(l.Problems[0].Ranks, []int32{0, 1, 2, 3}) {
		t.Fatalf("problems %+v, want two tp_across_hosts", l.Problems)
	}
}

func TestInferWorldSizeMismatch(t *testing.T) {
	j := newLayoutJob(8, 8, 1)
	l, err := Infer(j.done(), Flags{TP: 2, PP: 2, DP: 3})
	if err != nil || len(l.Problems) == 0 || l.Problems[0].Kind != "world_size_mismatch" {
		t.Fatalf("Infer = %+v, %v; want a world_size_mismatch problem", l, err)
	}
}

// dlrmLike: 8 ranks, no communicators or metadata at all, all-reduce and
// (all-to-all) send/recv kernels without peers, one host. The all-to-alls
// (3 per rank, not per-layer traffic) are the embedding exchange: A2A.
func TestInferPureDPWithoutMetadata(t *testing.T) {
	j := newLayoutJob(8, 8, 1)
	j.kernels(-1, model.OpAllReduce, 3, allRanks(8), nil)
	j.kernels(-1, model.OpSendRecv, 5, allRanks(8), nil)
	tr := j.done()
	l, err := Infer(tr, Flags{})
	if err != nil || l.TP != 1 || l.PP != 1 || l.DP != 8 || len(l.Problems) != 0 {
		t.Fatalf("Infer = %+v, %v; want TP1 PP1 DP8, no problems", l, err)
	}
	if tr.Ranks[5].Coord != (model.Coord{DP: 5}) {
		t.Errorf("rank 5 coord %+v", tr.Ranks[5].Coord)
	}
	for c := range tr.Colls.Comm {
		want, axis := WorldID, model.AxisDP
		if tr.Colls.Op[c] == model.OpAllToAll {
			want, axis = WorldID+"/all_to_all", model.AxisA2A
		}
		if comm := tr.Colls.Comm[c]; comm < 0 || tr.Comms[comm].ID != want || tr.Comms[comm].Axis != axis {
			t.Fatalf("row %d (%v): comm %d; every all-reduce of a job without pipeline goes to the inferred DP world, "+
				"every all-to-all to its A2A part, none to PP", c, tr.Colls.Op[c], comm)
		}
	}
}

func TestInferOrderFromStrides(t *testing.T) {
	j := newLayoutJob(4, 4, 1) // dp varies fastest
	j.comm("tp0", "TENSOR_MODEL_PARALLEL_GROUP", []int32{0, 2})
	j.comm("tp1", "TENSOR_MODEL_PARALLEL_GROUP", []int32{1, 3})
	j.comm("dp0", "DATA_PARALLEL_GROUP", []int32{0, 1})
	j.comm("dp1", "DATA_PARALLEL_GROUP", []int32{2, 3})
	tr := j.done()
	l, _ := Infer(tr, Flags{})
	if l.Order != "dp-tp-cp-ep-pp" || len(l.Problems) != 0 {
		t.Fatalf("order %q problems %+v, want dp-tp-cp-ep-pp", l.Order, l.Problems)
	}
	if c := tr.Ranks[1].Coord; c.DP != 1 || c.TP != 0 {
		t.Errorf("rank 1 coord %+v", c)
	}
}

func TestInferOrderMismatch(t *testing.T) {
	j := newLayoutJob(4, 4, 1)
	j.comm("tp0", "TENSOR_MODEL_PARALLEL_GROUP", []int32{0, 3})
	j.comm("tp1", "TENSOR_MODEL_PARALLEL_GROUP", []int32{1, 2})
	l, _ := Infer(j.done(), Flags{})
	if len(l.Problems) == 0 || l.Problems[0].Kind != "order_mismatch" {
		t.Fatalf("problems %+v, want order_mismatch", l.Problems)
	}
}

func TestAxisOfName(t *testing.T) {
	for _, c := range []struct {
		name string
		want model.Axis
	}{
		{"TENSOR_MODEL_PARALLEL_GROUP", model.AxisTP}, {"tensor_model_parallel_group_3", model.AxisTP},
		{"DATA_PARALLEL_GROUP_WITH_CP", model.AxisDP}, {"CONTEXT_PARALLEL_GROUP", model.AxisCP},
		{"EXPERT_MODEL_PARALLEL_GROUP", model.AxisEP}, {"mesh_tp", model.AxisTP}, {"mesh_dp_shard", model.AxisDP},
		{"pp", model.AxisPP}, {"default_pg", model.AxisWorld}, {"MODEL_PARALLEL_GROUP", model.AxisUnknown},
		{"EMBEDDING_GROUP", model.AxisUnknown}, {"", model.AxisUnknown}, {"0", model.AxisUnknown},
	} {
		if got := axisOfName(c.name); got != c.want {
			t.Errorf("axisOfName(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}
