package clock

import (
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// hostOffsets plants ±300 µs host clock offsets, two ranks per host.
func hostOffsets(r int32) int64 {
	return []int64{0, 300_000, -300_000, 170_000}[r/2]
}

// skewedTPDPWithSlowRank: 8 ranks on 4 hosts, TP groups of 2 and DP groups
// of 4; rank 5 is slow (ready 400 µs late), so others wait for it but every
// collective still ends together. Half the communicators record Seq.
func skewedTPDPWithSlowRank(t *testing.T) *job {
	t.Helper()
	j := newJob(8, hostOffsets)
	var comms []int32
	for g := int32(0); g < 4; g++ {
		comms = append(comms, j.comm("tp"+string('0'+rune(g)), 2*g, 2*g+1))
	}
	comms = append(comms, j.comm("dp0", 0, 2, 4, 6), j.comm("dp1", 1, 3, 5, 7))
	for step := int64(0); step < 60; step++ {
		base := 10_000_000 + step*2_000_000
		for ci, c := range comms {
			seq := int64(-1)
			if ci%2 == 0 {
				seq = step
			}
			j.collective(c, model.OpAllReduce, seq, j.ready(c, base+int64(ci)*100_000), 30_000, 1_000)
		}
	}
	return j
}

func (j *job) ready(comm int32, base int64) []int64 {
	m := j.tr.Comms[comm].Members
	out := make([]int64, len(m))
	for i, r := range m {
		out[i] = base + j.rng.Int64N(50_000)
		if r == 5 {
			out[i] += 400_000
		}
	}
	return out
}

func TestAlignRecoversPlantedOffsetsWithSlowRank(t *testing.T) {
	j := skewedTPDPWithSlowRank(t)
	tr := j.done()
	inst, st := MatchStats(tr)
	if st.Dropped != 0 || len(inst) != 60*6 {
		t.Fatalf("matched %d instances, dropped %d; want 360, 0", len(inst), st.Dropped)
	}
	o := Align(tr, inst)
	if o.Method != "collective-end" || len(o.Warnings) > 0 {
		t.Fatalf("method %q warnings %v", o.Method, o.Warnings)
	}
	for r, want := range j.offset {
		if d := o.Of(r) - want; d < -20_000 || d > 20_000 {
			t.Errorf("rank %d: offset %d ns, planted %d ns", r, o.Of(r), want)
		}
	}
	if o.ResidualNs > 2_000 {
		t.Errorf("residual %d ns, want within the 1 µs jitter", o.ResidualNs)
	}
}

// TestMinSubtractionFails shows why HTA's alignment (subtract each rank's
// first timestamp) is not enough: the slow rank starts late on the true
// clock, which min-subtraction mistakes for clock skew.
func TestMinSubtractionFails(t *testing.T) {
	j := skewedTPDPWithSlowRank(t)
	tr := j.done()
	first := map[int32]int64{}
	for i := tr.Events.Len() - 1; i >= 0; i-- {
		first[tr.Events.Rank[i]] = tr.Events.Start[i]
	}
	var worst int64
	for r, want := range j.offset {
		worst = max(worst, abs(first[r]-first[0]-want))
	}
	if worst < 100_000 {
		t.Fatalf("min-subtraction error only %d ns; the scenario should defeat it", worst)
	}
	o := Align(tr, Match(tr))
	for r, want := range j.offset {
		if abs(o.Of(r)-want) > 20_000 {
			t.Errorf("rank %d: Align error %d ns", r, o.Of(r)-want)
		}
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestMatchBySeqSurvivesMissingKernel(t *testing.T) {
	j := newJob(2, func(int32) int64 { return 0 })
	c := j.comm("tp", 0, 1)
	for seq := int64(1); seq <= 3; seq++ {
		end := seq * 1000
		j.kernel(0, c, model.OpAllReduce, seq, -1, end-500, end)
		if seq != 2 {
			j.kernel(1, c, model.OpAllReduce, seq, -1, end-300, end)
		}
	}
	tr := j.done()
	inst, st := MatchStats(tr)
	if len(inst) != 2 || st.Dropped != 1 {
		t.Fatalf("got %d instances, %d dropped; want 2, 1", len(inst), st.Dropped)
	}
	for _, in := range inst {
		e0, e1 := in.Events[0], in.Events[1]
		if tr.Events.Rank[e0] != 0 || tr.Events.Rank[e1] != 1 {
			t.Fatalf("members not ordered by rank: %v", in.Events)
		}
		if end(tr, e0) != end(tr, e1) || end(tr, e0) != in.Seq*1000 {
			t.Errorf("seq %d paired kernels ending at %d and %d", in.Seq, end(tr, e0), end(tr, e1))
		}
	}
}

func end(tr *model.Trace, e int32) int64 { return tr.Events.Start[e] + tr.Events.Dur[e] }

func TestMatchByOrderPerOp(t *testing.T) {
	j := newJob(2, func(int32) int64 { return 0 })
	c := j.comm("dp", 0, 1)
	// Rank 0 runs all-reduce, all-gather, all-reduce; rank 1 launches its
	// all-gather first (another stream). Pairing must follow the op.
	j.kernel(0, c, model.OpAllReduce, -1, -1, 100, 1000)
	j.kernel(0, c, model.OpAllGather, -1, -1, 1100, 2000)
	j.kernel(0, c, model.OpAllReduce, -1, -1, 2100, 3000)
	j.kernel(1, c, model.OpAllGather, -1, -1, 50, 2000)
	j.kernel(1, c, model.OpAllReduce, -1, -1, 60, 1000)
	j.kernel(1, c, model.OpAllReduce, -1, -1, 2500, 3000)
	tr := j.done()
	inst := Match(tr)
	if len(inst) != 3 {
		t.Fatalf("got %d instances, want 3", len(inst))
	}
	for _, in := range inst {
		if a, b := end(tr, in.Events[0]), end(tr, in.Events[1]); a != b {
			t.Errorf("%v instance %d paired ends %d and %d", in.Op, in.Seq, a, b)
		}
	}
}

func TestMatchP2PPairsByDirection(t *testing.T) {
	j := newJob(3, func(int32) int64 { return 0 })
	c := j.comm("pp", 0, 1)
	j.kernel(0, c, model.OpSend, -1, 1, 100, 1000)
	j.kernel(0, c, model.OpRecv, -1, 1, 1200, 2000)
	j.kernel(0, c, model.OpSend, -1, 1, 2100, 3000)
	j.kernel(1, c, model.OpRecv, -1, 0, 500, 1000)
	j.kernel(1, c, model.OpSend, -1, 0, 1900, 2000)
	j.kernel(1, c, model.OpRecv, -1, 0, 2900, 3000)
	b := j.comm("pp-batched", 1, 2) // batched p2p: no peer, undirected
	j.kernel(1, b, model.OpSendRecv, -1, -1, 3100, 4000)
	j.kernel(2, b, model.OpSendRecv, -1, -1, 3500, 4000)
	tr := j.done()
	inst, st := MatchStats(tr)
	if len(inst) != 4 || st.Dropped != 0 || st.NoPeer != 0 {
		t.Fatalf("got %d instances (stats %+v), want 4", len(inst), st)
	}
	for _, in := range inst {
		if a, b := end(tr, in.Events[0]), end(tr, in.Events[1]); a != b {
			t.Errorf("p2p instance paired ends %d and %d", a, b)
		}
	}
}

func TestMatchDropsInstanceWithMissingMember(t *testing.T) {
	j := newJob(3, func(int32) int64 { return 0 })
	c := j.comm("dp", 0, 1, 2)
	j.collective(c, model.OpAllReduce, -1, []int64{0, 10, 20}, 100, 0)
	for r := int32(0); r < 2; r++ { // rank 2's second kernel was not captured
		j.kernel(r, c, model.OpAllReduce, -1, -1, 500, 900)
	}
	tr := j.done()
	inst, st := MatchStats(tr)
	if len(inst) != 1 || st.Dropped != 1 || len(inst[0].Events) != 3 {
		t.Fatalf("got %d instances, %d dropped; want 1 complete, 1 dropped", len(inst), st.Dropped)
	}
}

func TestAlignWarnsForUnconnectedRank(t *testing.T) {
	j := newJob(4, func(r int32) int64 { return int64(r) * 100_000 })
	c := j.comm("dp", 0, 1, 2)
	lone := j.comm("self", 3)
	for k := int64(0); k < 10; k++ {
		j.collective(c, model.OpAllReduce, k, []int64{k * 1e6, k*1e6 + 10, k*1e6 + 20}, 1000, 0)
		j.collective(lone, model.OpAllReduce, k, []int64{k * 1e6}, 1000, 0)
	}
	tr := j.done()
	o := Align(tr, Match(tr))
	if o.Of(3) != 0 || len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], "rank 3") || !slices.Equal(o.Unaligned, []int32{3}) {
		t.Fatalf("rank 3: offset %d warnings %v unaligned %v; want 0, one warning, [3]", o.Of(3), o.Warnings, o.Unaligned)
	}
	if o.Of(1) != 100_000 || o.Of(2) != 200_000 {
		t.Errorf("offsets %v, want 1→100000, 2→200000", o.ByRank)
	}
}

// TestMatchBySeqKeepsOpsApart: NCCL's coll_sn counts per communicator and
// operation, so reduce-scatter #3 and all-gather #3 of one communicator are
// two instances, not one with four members.
func TestMatchBySeqKeepsOpsApart(t *testing.T) {
	j := newJob(2, func(int32) int64 { return 0 })
	c := j.comm("dp", 0, 1)
	for r := int32(0); r < 2; r++ {
		j.kernel(r, c, model.OpReduceScatter, 3, -1, 1000, 2000)
		j.kernel(r, c, model.OpAllGather, 3, -1, 3000, 4000)
	}
	tr := j.done()
	inst, st := MatchStats(tr)
	if len(inst) != 2 || st.Dropped != 0 {
		t.Fatalf("got %d instances (%d dropped); want reduce-scatter and all-gather apart", len(inst), st.Dropped)
	}
	for _, in := range inst {
		if len(in.Events) != 2 || end(tr, in.Events[0]) != end(tr, in.Events[1]) {
			t.Errorf("%v #%d pairs kernels ending at different times: %v", in.Op, in.Seq, in.Events)
		}
	}
}

func TestRangesCollapseRuns(t *testing.T) {
	for _, c := range []struct {
		in   []int32
		want string
	}{{[]int32{3}, "3"}, {[]int32{16, 17, 18, 63, 70, 71}, "16–18, 63, 70–71"}, {nil, ""}} {
		if got := Ranges(c.in); got != c.want {
			t.Errorf("Ranges(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestOfEqualsByRank: Of answers from the dense copy as from the map, for
// ranks present, absent, negative and past the end, and sparse ranks keep
// the map.
func TestOfEqualsByRank(t *testing.T) {
	for _, m := range []map[int32]int64{{0: 5, 1: -7, 3: 9}, {2: 4, 1 << 20: 8}, {}} {
		o := Offsets{ByRank: m}
		o.densify()
		if len(m) == 2 && o.dense != nil {
			t.Fatalf("ranks %v made a dense table of %d", m, len(o.dense))
		}
		for _, r := range []int32{-1, 0, 1, 2, 3, 4, 1 << 20, 1<<20 + 1} {
			if got, want := o.Of(r), m[r]; got != want {
				t.Fatalf("ranks %v: Of(%d) = %d, want %d", m, r, got, want)
			}
		}
	}
}
