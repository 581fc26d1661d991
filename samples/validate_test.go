package samples

import (
	"fmt"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// simulateAll runs every scenario (big-64 included) once per test binary.
var simulated = map[string]*Job{}

func scenarioJob(t *testing.T, name string) *Job {
	t.Helper()
	if j, ok := simulated[name]; ok {
		return j
	}
	c, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	j, err := Simulate(c)
	if err != nil {
		t.Fatalf("simulate %s: %v", name, err)
	}
	simulated[name] = j
	return j
}

func TestScenariosAreValidTraces(t *testing.T) {
	for _, sc := range Scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			j := scenarioJob(t, sc.Name)
			if err := j.Trace.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			checkCollectivesEndTogether(t, j)
			checkStreamsSerial(t, j.Trace)
			checkKernelsInsideSteps(t, j)
		})
	}
}

type memberKey struct {
	comm     int32
	src, dst int32
	seq      int64
}

// endSpan is the earliest and latest aligned end of an instance's members.
type endSpan struct{ lo, hi int64 }

// checkCollectivesEndTogether: members of an instance end within EndSkewNs
// of each other on the aligned (true) clock (exactly together when it is 0,
// and not all together when it is not), there are as many as the
// communicator (2 for p2p), and a recv ends after its send started.
func checkCollectivesEndTogether(t *testing.T, j *Job) {
	tr, ev := j.Trace, &j.Trace.Events
	ends, counts := map[memberKey]endSpan{}, map[memberKey]int{}
	sends, recvs := map[memberKey]int64{}, map[memberKey]int64{}
	for i := range ev.Len() {
		c := ev.Coll[i]
		if c < 0 || tr.Colls.Comm[c] < 0 {
			continue
		}
		k, _ := instanceKey(tr, i)
		off := j.Truth.Ranks[ev.Rank[i]].ClockOffsetNs
		end := ev.Start[i] + ev.Dur[i] - off
		ends[k], counts[k] = widen(ends[k], end, counts[k] == 0), counts[k]+1
		switch tr.Colls.Op[c] {
		case model.OpSend:
			sends[k] = ev.Start[i] - off
		case model.OpRecv:
			recvs[k] = end
		}
	}
	checkEndSpread(t, j.Config.EndSkewNs, ends)
	checkRecvAfterSend(t, sends, recvs)
	for k, n := range counts {
		if _, want := keyWant(tr, k); n != want && !(j.Config.CutLastStep && n < want) { // a cut capture loses members
			t.Fatalf("instance %+v has %d members, want %d", k, n, want)
		}
	}
}

func widen(s endSpan, x int64, first bool) endSpan {
	if first {
		return endSpan{x, x}
	}
	return endSpan{min(s.lo, x), max(s.hi, x)}
}

// checkEndSpread: every instance's ends lie within skew of each other, and
// with skew > 0 some instance's members do not end together.
func checkEndSpread(t *testing.T, skew int64, ends map[memberKey]endSpan) {
	t.Helper()
	var widest int64
	for k, s := range ends {
		if d := s.hi - s.lo; d > max(skew-1, 0) {
			t.Fatalf("instance %+v: members end %d ns apart, want < %d (EndSkewNs)", k, d, max(skew, 1))
		}
		widest = max(widest, s.hi-s.lo)
	}
	if skew > 0 && widest == 0 {
		t.Fatalf("EndSkewNs %d but every instance's members end together", skew)
	}
}

func checkRecvAfterSend(t *testing.T, sends, recvs map[memberKey]int64) {
	t.Helper()
	for k, end := range recvs {
		if start, ok := sends[k]; ok && end <= start {
			t.Fatalf("p2p %+v: recv ends at %d, not after the send started at %d", k, end, start)
		}
	}
}

func instanceKey(tr *model.Trace, i int) (memberKey, int) {
	c, r := tr.Events.Coll[i], tr.Events.Rank[i]
	k := memberKey{comm: tr.Colls.Comm[c], src: -1, dst: -1, seq: tr.Colls.Seq[c]}
	switch tr.Colls.Op[c] {
	case model.OpSend:
		k.src, k.dst = r, tr.Colls.Peer[c]
	case model.OpRecv:
		k.src, k.dst = tr.Colls.Peer[c], r
	}
	return keyWant(tr, k)
}

func keyWant(tr *model.Trace, k memberKey) (memberKey, int) {
	if k.src >= 0 {
		return k, 2
	}
	return k, len(tr.Comms[k.comm].Members)
}

// checkStreamsSerial: no two kernels overlap on one stream.
func checkStreamsSerial(t *testing.T, tr *model.Trace) {
	lastEnd := map[int32]int64{}
	ev := &tr.Events
	for i := range ev.Len() {
		if !ev.Kind[i].OnGPU() {
			continue
		}
		s := ev.Stream[i]
		if e, ok := lastEnd[s]; ok && ev.Start[i] < e {
			t.Fatalf("kernel %d (%s) on stream %d starts at %d before the previous ends at %d", i, tr.Name(i), s, ev.Start[i], e)
		}
		lastEnd[s] = ev.Start[i] + ev.Dur[i]
	}
}

// checkKernelsInsideSteps: every kernel lies inside one ProfilerStep window
// of its rank, and every kernel has a launch with its correlation id.
func checkKernelsInsideSteps(t *testing.T, j *Job) {
	tr, ev := j.Trace, &j.Trace.Events
	launches := map[[2]int64]bool{}
	for i := range ev.Len() {
		if ev.Kind[i] == model.KindRuntime && ev.Corr[i] >= 0 {
			launches[[2]int64{int64(ev.Rank[i]), ev.Corr[i]}] = true
		}
	}
	for _, r := range tr.Ranks {
		lo, hi := ev.RankRange(r.Rank)
		var wins [][2]int64
		for i := lo; i < hi; i++ {
			if ev.Kind[i] == model.KindAnnotation && len(tr.Name(i)) > 13 && tr.Name(i)[:13] == "ProfilerStep#" {
				wins = append(wins, [2]int64{ev.Start[i], ev.Start[i] + ev.Dur[i]})
			}
		}
		if len(wins) != j.Config.Steps {
			t.Fatalf("rank %d has %d step windows, want %d", r.Rank, len(wins), j.Config.Steps)
		}
		for i := lo; i < hi; i++ {
			if !ev.Kind[i].OnGPU() {
				continue
			}
			if !launches[[2]int64{int64(ev.Rank[i]), ev.Corr[i]}] {
				t.Fatalf("kernel %d of rank %d has no launch with correlation %d", i, r.Rank, ev.Corr[i])
			}
			end := ev.Start[i] + ev.Dur[i]
			if j.Config.CutLastStep {
				end = ev.Start[i] + 1 // the cut step's kernels run past its clipped window
			}
			if !inside(wins, ev.Start[i], end) {
				t.Fatalf("kernel %d of rank %d at [%d,%d) is in no step window", i, r.Rank, ev.Start[i], end)
			}
		}
	}
}

func inside(wins [][2]int64, lo, hi int64) bool {
	for _, w := range wins {
		if lo >= w[0] && hi <= w[1] {
			return true
		}
	}
	return false
}

// TestVariantsAreValidTraces runs the new generator options across shapes:
// interleaved pipelines of 2 to 4 stages and 2 or 3 chunks (with DP overlap,
// the distributed optimizer, sequence parallelism, a cut last step) must
// simulate without deadlock and give valid traces.
func TestVariantsAreValidTraces(t *testing.T) {
	for _, v := range []struct{ pp, vs, m, dp int }{{2, 2, 4, 2}, {3, 3, 6, 1}, {4, 2, 4, 2}, {2, 3, 2, 1}} {
		c := DefaultConfig()
		c.PP, c.VirtualStages, c.Microbatches, c.DP, c.LayersPerStage = v.pp, v.vs, v.m, v.dp, 6
		c.Schedule, c.DPOverlap, c.DistOptimizer, c.SeqParallel, c.CutLastStep, c.Steps = ScheduleInterleaved, true, v.dp > 1, v.pp != 3, v.pp == 4, 2
		t.Run(fmt.Sprintf("pp%d-v%d-m%d-dp%d", v.pp, v.vs, v.m, v.dp), func(t *testing.T) {
			j, err := Simulate(c)
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Trace.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			checkCollectivesEndTogether(t, j)
			checkStreamsSerial(t, j.Trace)
			checkKernelsInsideSteps(t, j)
			if n := dpBuckets(j.Trace, 0); v.dp > 1 && n != c.DPBuckets*c.Steps {
				t.Errorf("rank 0 launched %d gradient buckets, want %d per step", n, c.DPBuckets)
			}
		})
	}
}

// dpBuckets counts rank r's gradient reductions over its DP group.
func dpBuckets(tr *model.Trace, r int32) int {
	n := 0
	lo, hi := tr.Events.RankRange(r)
	for i := lo; i < hi; i++ {
		c := tr.Events.Coll[i]
		if c >= 0 && tr.Colls.Comm[c] >= 0 && tr.Comms[tr.Colls.Comm[c]].Desc == DescDP && tr.Colls.Op[c] != model.OpAllGather {
			n++
		}
	}
	return n
}
