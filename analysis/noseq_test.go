package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestEndToEndKinetoWithoutP2PSeq: default on 4 hosts of 4 GPUs (one stage
// each, so only pipeline transfers join the hosts), clocks ±300 µs apart,
// whose
// pipeline send/recv carry their process group but neither "Seq" nor a
// peer, written as Kineto and read back: every truth figure holds (every
// clock offset within 20 µs) and no rank is left unaligned.
func TestEndToEndKinetoWithoutP2PSeq(t *testing.T) {
	cfg := sampletest.Config(t, "default")
	cfg.P2PNoSeq, cfg.GPUsPerHost, cfg.HostOffsetsNs = true, 4, []int64{0, 300_000, -300_000, 170_000}
	job := sampletest.Simulate(t, cfg)
	res := mustAnalyze(t, sampletest.Load(t, source.Options{}, sampletest.KinetoDir(t, job)))
	checkTruth(t, res, job.Truth)
	if len(res.Clock.UnalignedRanks) > 0 {
		t.Errorf("unaligned ranks %v; want none", res.Clock.UnalignedRanks)
	}
	f := measureClock(res, job.Truth)
	t.Logf("clock %+v: %v", res.Clock, f)
	if f.planted != 300_000 {
		t.Errorf("planted offsets of at most %d ns, want 300 µs", f.planted)
	}
}

// TestUnalignedRanksNamed: big-64 whose pipeline transfers lost their
// collective records: only TP and DP collectives remain, which never leave a
// stage, so ranks 16–63 cannot be aligned to rank 0. The Result names them
// once, and the warning says so; the first stage is still aligned within
// 20 µs.
func TestUnalignedRanksNamed(t *testing.T) {
	job := sampletest.Job(t, "big-64")
	ev := &job.Trace.Events
	for i := range ev.Len() {
		if c := ev.Coll[i]; c >= 0 && job.Trace.Colls.Op[c].PointToPoint() {
			ev.Coll[i] = -1
		}
	}
	res := mustAnalyze(t, job.Trace)
	var want []int
	for r := 16; r < 64; r++ {
		want = append(want, r)
	}
	if !slices.Equal(res.Clock.UnalignedRanks, want) {
		t.Fatalf("unaligned ranks %v, want 16–63", res.Clock.UnalignedRanks)
	}
	if n := countContaining(res.Warnings, "clocks of ranks 16–63 could not be aligned"); n != 1 {
		t.Errorf("warnings %q: want one naming ranks 16–63", res.Warnings)
	}
	for r := range 16 {
		if d := abs(res.Ranks[r].ClockOffsetNs - job.Truth.Ranks[r].ClockOffsetNs); d > 20_000 {
			t.Errorf("rank %d: offset error %d ns", r, d)
		}
	}
}

func countContaining(ws []string, s string) int {
	n := 0
	for _, w := range ws {
		if strings.Contains(w, s) {
			n++
		}
	}
	return n
}
