package layout

import (
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// noMetaKernel adds a communication kernel with no communicator, ending
// at end on rank r's clock.
func noMetaKernel(tr *model.Trace, r int32, op model.Op, bytes, end int64) {
	c := model.NewCollective(op)
	c.Bytes = bytes
	e := model.NewEvent(r, model.KindComm, tr.Names.Intern("ncclKernel_"+op.String()), end-5000, 5000)
	e.Coll = tr.Colls.Append(c)
	tr.AddEvent(e)
}

// dlrmLike: ranks run the same sequence (all_to_all as peerless
// send_recv, then all-reduces), rank r's clock offset r·1 ms.
func dlrmLike(ranks int) *model.Trace {
	tr := &model.Trace{}
	ops := []model.Op{model.OpSendRecv, model.OpSendRecv, model.OpAllReduce, model.OpAllReduce}
	for r := int32(0); r < int32(ranks); r++ {
		tr.AddRank(model.Rank{Rank: r, LocalGPU: r, Coord: model.UnknownCoord, Source: -1})
		for step := range int64(3) {
			for k, op := range ops {
				noMetaKernel(tr, r, op, int64(1000*(k+1)), 1e9+step*1e8+int64(k)*1e7+int64(r)*1e6)
			}
		}
	}
	tr.Events.Sort()
	return tr
}

func TestInferWorldOnSameSequences(t *testing.T) {
	tr := dlrmLike(4)
	l, err := Infer(tr, Flags{})
	if err != nil || l.TP != 1 || l.PP != 1 || l.DP != 4 || l.By != "traffic" || len(l.Problems)+len(l.Warnings) > 0 {
		t.Fatalf("Infer = %+v, %v; want TP1 PP1 DP4 by traffic", l, err)
	}
	if len(tr.Comms) != 2 || tr.Comms[0].ID != WorldID || len(tr.Comms[0].Members) != 4 ||
		tr.Comms[0].Axis != model.AxisDP || tr.Comms[0].AxisBy != model.AxisByTraffic ||
		tr.Comms[1].ID != WorldID+"/all_to_all" || len(tr.Comms[1].Members) != 4 || tr.Comms[1].Axis != model.AxisA2A {
		t.Fatalf("comms %+v; want one inferred DP world of 4 and its all-to-all part, A2A", tr.Comms)
	}
	seqs := map[int64][]int32{}
	for i := 0; i < tr.Events.Len(); i++ {
		c := tr.Events.Coll[i]
		if want := int32(map[bool]int{true: 1}[tr.Colls.Op[c] == model.OpAllToAll]); tr.Colls.Comm[c] != want || tr.Colls.Op[c] == model.OpSendRecv {
			t.Fatalf("event %d: comm %d op %v", i, tr.Colls.Comm[c], tr.Colls.Op[c])
		}
		seqs[tr.Colls.Seq[c]] = append(seqs[tr.Colls.Seq[c]], tr.Events.Rank[i])
	}
	if len(seqs) != 12 {
		t.Fatalf("%d sequence numbers, want 12", len(seqs))
	}
	for s, ranks := range seqs {
		if len(ranks) != 4 {
			t.Errorf("seq %d on ranks %v, want one kernel on each of 4", s, ranks)
		}
	}
}

// TestInferWorldLeavesTracesWithCommunicators: a trace that declares its
// process groups gets no inferred world; its collectives without metadata
// go to the declared group whose members end them together (by stream,
// attributeByStream), its send/recv kernels stay unattributed, and nothing
// is renumbered or turned into all-to-all.
func TestInferWorldLeavesTracesWithCommunicators(t *testing.T) {
	tr := dlrmLike(2)
	tr.AddComm(model.Communicator{ID: "0", Members: []int32{0, 1}})
	if _, err := Infer(tr, Flags{}); err != nil {
		t.Fatal(err)
	}
	for c := range tr.Colls.Comm {
		want := int32(-1)
		if tr.Colls.Op[c] == model.OpAllReduce {
			want = 0
		}
		if tr.Colls.Comm[c] != want || tr.Colls.Seq[c] != -1 || tr.Colls.Op[c] == model.OpAllToAll {
			t.Fatalf("row %d: comm %d seq %d op %v, want comm %d, no seq, the op kept", c, tr.Colls.Comm[c], tr.Colls.Seq[c], tr.Colls.Op[c], want)
		}
	}
	if len(tr.Comms) != 1 {
		t.Errorf("%d communicators, want only the declared one", len(tr.Comms))
	}
}

// TestInferWorldPairsSampledSequences: rank 1's capture misses its first
// kernel and has one rank 0 lacks (a sampled trace, like HTA's
// trace_filter set); the rest pair by op, size and end after rank 1's
// 300 µs clock offset, and the odd ones keep a sequence number of their own.
func TestInferWorldPairsSampledSequences(t *testing.T) {
	tr := &model.Trace{}
	for r := int32(0); r < 2; r++ {
		tr.AddRank(model.Rank{Rank: r, LocalGPU: r, Coord: model.UnknownCoord, Source: -1})
	}
	ends := []int64{1e9, 1.1e9, 1.2e9, 1.3e9, 1.4e9}
	for k, e := range ends {
		noMetaKernel(tr, 0, model.OpAllReduce, int64(100+k), e)
		if k > 0 {
			noMetaKernel(tr, 1, model.OpAllReduce, int64(100+k), e+300_000+int64(k)*20_000)
		}
	}
	noMetaKernel(tr, 1, model.OpAllGather, 64, 1.25e9)
	tr.Events.Sort()
	l, err := Infer(tr, Flags{})
	if err != nil || len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "rank 1's sequence differs") {
		t.Fatalf("Infer = %+v, %v; want one warning about rank 1", l, err)
	}
	bySeq := map[int64][]int64{}
	for i := 0; i < tr.Events.Len(); i++ {
		c := tr.Events.Coll[i]
		bySeq[tr.Colls.Seq[c]] = append(bySeq[tr.Colls.Seq[c]], tr.Colls.Bytes[c])
	}
	pairs := 0
	for s, b := range bySeq {
		switch {
		case len(b) == 2 && b[0] == b[1]:
			pairs++
		case len(b) != 1:
			t.Errorf("seq %d holds sizes %v", s, b)
		}
	}
	if pairs != 4 || len(bySeq) != 6 {
		t.Errorf("%d pairs in %d sequence numbers, want 4 in 6", pairs, len(bySeq))
	}
}

// BenchmarkInferWorldNoMeta64: 64 ranks with no communicator, 2000
// collectives each, the same sequence everywhere (the DLRM path at scale).
func BenchmarkInferWorldNoMeta64(b *testing.B) {
	base := &model.Trace{}
	ops := []model.Op{model.OpSendRecv, model.OpAllReduce, model.OpAllGather, model.OpAllReduce}
	for r := int32(0); r < 64; r++ {
		base.AddRank(model.Rank{Rank: r, LocalGPU: r % 8, Coord: model.UnknownCoord, Source: -1})
		for k := range int64(2000) {
			noMetaKernel(base, r, ops[k%4], 1000+k%7, 1e9+k*100_000+int64(r)*500)
		}
	}
	base.Events.Sort()
	b.ReportMetric(float64(base.Events.Len()), "events")
	for b.Loop() {
		b.StopTimer()
		tr := *base
		tr.Colls = model.Collectives{}
		for c := range base.Colls.Len() {
			tr.Colls.Append(base.Colls.At(c))
		}
		tr.Comms = nil
		b.StartTimer()
		if _, err := Infer(&tr, Flags{}); err != nil || len(tr.Comms) != 1 {
			b.Fatalf("Infer: %v, %d comms", err, len(tr.Comms))
		}
	}
}
