package ingest

import (
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// TestSnapshotIsolated changes a trace the ways analysis does and checks
// that the snapshot the cache is written from keeps the loaded values.
func TestSnapshotIsolated(t *testing.T) {
	tr := &model.Trace{}
	tr.AddRank(model.Rank{Rank: 0, LocalGPU: -1, Coord: model.UnknownCoord})
	tr.AddComm(model.Communicator{ID: "0", Members: []int32{0}})
	e := model.NewEvent(0, model.KindComm, tr.Names.Intern("k"), 10, 5)
	e.Coll = tr.Colls.Append(model.NewCollective(model.OpAllReduce))
	tr.AddEvent(e)
	s := snapshot(tr)
	tr.Ranks[0].Coord.TP = 3
	tr.Comms[0].Axis = model.AxisTP
	tr.Comms[0].Members[0] = 7
	tr.Names.Intern("new")
	tr.Events.Iter[0], tr.Events.Micro[0], tr.Events.Coll[0] = 2, 1, -1
	tr.Colls.Comm[0], tr.Colls.Op[0] = 0, model.OpSend
	switch {
	case s.Ranks[0].Coord.TP != -1, s.Comms[0].Axis != model.AxisUnknown, s.Comms[0].Members[0] != 0:
		t.Fatal("the snapshot shares ranks or communicators")
	case s.Names.Len() != 2, s.Events.Iter[0] != -1, s.Events.Micro[0] != -1, s.Events.Coll[0] != 0:
		t.Fatal("the snapshot shares names or event columns")
	case s.Colls.Comm[0] != -1, s.Colls.Op[0] != model.OpAllReduce:
		t.Fatal("the snapshot shares the collectives")
	}
}

// TestSnapshotIsolatedLarge is TestSnapshotIsolated for a trace large
// enough to have its columns cloned on goroutines of their own.
func TestSnapshotIsolatedLarge(t *testing.T) {
	tr := &model.Trace{}
	tr.AddRank(model.Rank{Rank: 0, LocalGPU: -1, Coord: model.UnknownCoord})
	k := tr.Names.Intern("k")
	for i := range snapshotParallel + 3 {
		e := model.NewEvent(0, model.KindComm, k, int64(10*i), 5)
		e.Coll = tr.Colls.Append(model.NewCollective(model.OpAllReduce))
		tr.AddEvent(e)
	}
	s := snapshot(tr)
	last := tr.Events.Len() - 1
	tr.Events.Iter[last], tr.Events.Micro[last], tr.Events.Coll[last] = 2, 1, -1
	tr.Events.Kind[last], tr.Events.Stream[last] = model.KindCompute, 9
	tr.Colls.Comm[last], tr.Colls.Op[last], tr.Colls.Seq[last] = 0, model.OpSend, 77
	tr.Ranks[0].Coord.TP = 3
	switch {
	case s.Events.Len() != tr.Events.Len() || s.Colls.Len() != tr.Colls.Len():
		t.Fatalf("snapshot of %d events, %d collectives; want %d, %d", s.Events.Len(), s.Colls.Len(), tr.Events.Len(), tr.Colls.Len())
	case s.Events.Iter[last] != -1, s.Events.Micro[last] != -1, s.Events.Coll[last] != int32(last):
		t.Fatal("the snapshot shares the iteration, microbatch or collective column")
	case s.Events.Kind[last] != model.KindComm, s.Events.Stream[last] == 9:
		t.Fatal("the snapshot shares the kind or stream column")
	case s.Colls.Comm[last] != -1, s.Colls.Op[last] != model.OpAllReduce, s.Colls.Seq[last] == 77:
		t.Fatal("the snapshot shares the collectives")
	case s.Ranks[0].Coord.TP != -1:
		t.Fatal("the snapshot shares the ranks")
	}
}
