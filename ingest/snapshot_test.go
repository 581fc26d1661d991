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
