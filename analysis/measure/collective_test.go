package measure

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/clock"
	"github.com/tpptrace/tpptrace/model"
)

// TestCollectivesInBlocksInOrder: enough instances to be timed in parallel
// blocks (empty ones among them) give the timings and members of timing
// them one after the other.
func TestCollectivesInBlocksInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	tr := &model.Trace{}
	var inst []clock.Instance
	for k := range 20_000 {
		in := clock.Instance{Comm: -1, Seq: int64(k), Op: model.OpAllReduce}
		for r := range int32(rng.IntN(4)) {
			e := model.NewEvent(r, model.KindComm, 1, int64(k)*100+rng.Int64N(50), rng.Int64N(30))
			tr.Events.Append(e)
			in.Events = append(in.Events, int32(tr.Events.Len()-1))
		}
		inst = append(inst, in)
	}
	off := func(r int32) int64 { return int64(r) * 7 }
	var want Timings
	for _, in := range inst {
		if len(in.Events) == 0 {
			continue
		}
		m := make([]Member, len(in.Events))
		want.Inst = append(want.Inst, timing(tr, in, off, m, len(want.Members)))
		want.Members = append(want.Members, m...)
	}
	if got := Collectives(tr, inst, off); !reflect.DeepEqual(got, want) || len(got.Inst) < 10_000 {
		t.Fatalf("%d instances timed in blocks differ from %d timed in order", len(got.Inst), len(want.Inst))
	}
}
