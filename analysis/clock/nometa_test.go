package clock

import (
	"testing"

	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/model"
)

// TestAlignWithoutProcessGroups: 4 ranks on 4 hosts whose kernels carry
// no communicator and no sequence number (2023 Kineto, DLRM); rank 2 is
// ready 300 µs late in every all-reduce. layout.Infer gives them the
// inferred world group; every instance then matches and the planted
// offsets come back within 20 µs.
func TestAlignWithoutProcessGroups(t *testing.T) {
	j := newJob(4, func(r int32) int64 { return []int64{0, 250_000, -180_000, 90_000}[r] })
	members := []int32{0, 1, 2, 3}
	for step := int64(0); step < 40; step++ {
		base := 5_000_000 + step*3_000_000
		for k, op := range []model.Op{model.OpSendRecv, model.OpAllReduce, model.OpAllReduce} {
			ready := make([]int64, 4)
			for i := range ready {
				ready[i] = base + int64(k)*600_000 + j.rng.Int64N(40_000)
				if op == model.OpAllReduce && i == 2 {
					ready[i] += 300_000
				}
			}
			j.noMetaCollective(members, op, ready, 25_000, 1_000)
		}
	}
	tr := j.done()
	if _, err := layout.Infer(tr, layout.Flags{}); err != nil {
		t.Fatal(err)
	}
	inst, st := MatchStats(tr)
	if len(inst) != 120 || st.Dropped != 0 || st.NoComm != 0 {
		t.Fatalf("matched %d instances (stats %+v); want 120, none dropped", len(inst), st)
	}
	o := Align(tr, inst)
	for r, want := range j.offset {
		if d := o.Of(r) - want; d < -20_000 || d > 20_000 {
			t.Errorf("rank %d: offset %d ns, planted %d ns", r, o.Of(r), want)
		}
	}
	if o.Method != "collective-end" || o.ResidualNs > 2_000 {
		t.Errorf("method %q residual %d ns; want collective-end within the 1 µs jitter", o.Method, o.ResidualNs)
	}
}

// noMetaCollective adds one instance on members, with no communicator:
// each member ready at ready[i], all ending transfer after the last is
// ready, ±jitter.
func (j *job) noMetaCollective(members []int32, op model.Op, ready []int64, transfer, jitter int64) {
	end := ready[0]
	for _, r := range ready {
		end = max(end, r)
	}
	for i, m := range members {
		jit := j.rng.Int64N(2*jitter+1) - jitter
		j.kernel(m, -1, op, -1, -1, ready[i], end+transfer+jit)
	}
}
