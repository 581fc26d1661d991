package clock_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/clock"
	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestAlignPairsTransfersWithoutSeqOrPeer: the pipeline groups' send/recv
// kernels carry their process group but neither Seq nor a peer (P2PNoSeq),
// so only their common ends join the stages. Every transfer is paired with
// the partner the generator gave it, and every planted offset comes back
// within 20 µs: default (16 ranks on 2 hosts ±300 µs), the same on 8 hosts
// of 2 GPUs, big-64 with ±300 µs hosts, and interleaved (whose last stage
// also sends to the first).
func TestAlignPairsTransfersWithoutSeqOrPeer(t *testing.T) {
	for _, name := range []string{"default", "default-2gpu", "big-64", "interleaved-2gpu"} {
		t.Run(name, func(t *testing.T) {
			cfg := noSeqConfig(t, name)
			j, ref := sampletest.Simulate(t, cfg), withPeers(t, cfg)
			if _, err := layout.Infer(j.Trace, layout.Flags{}); err != nil {
				t.Fatal(err)
			}
			inst, st := clock.MatchStats(j.Trace)
			o := clock.Align(j.Trace, inst)
			if len(o.Warnings) > 0 || len(o.Unaligned) > 0 || st.NoPeer > 0 || st.ByEnd == 0 {
				t.Fatalf("warnings %v unaligned %v (stats %+v); want every transfer paired", o.Warnings, o.Unaligned, st)
			}
			if wrong := wrongPairs(j.Trace, inst, truePairs(ref.Trace)); wrong > 0 {
				t.Errorf("%d of %d transfers paired with the wrong partner", wrong, st.ByEnd/2)
			}
			worst := worstError(j, o)
			t.Logf("%d instances (%+v), worst error %d ns, residual %d ns", len(inst), st, worst, o.ResidualNs)
			if worst > 20_000 {
				t.Errorf("worst offset error %d ns, want ≤ 20 µs", worst)
			}
		})
	}
}

// noSeqConfig is the named scenario with P2PNoSeq and ±300 µs host
// clocks; "-2gpu" puts two GPUs on each host.
func noSeqConfig(tb testing.TB, name string) samples.Config {
	base, small := strings.CutSuffix(name, "-2gpu")
	cfg := sampletest.Config(tb, base)
	cfg.P2PNoSeq, cfg.MaxHostOffsetNs = true, 300_000
	if small {
		cfg.GPUsPerHost = 2
	}
	return cfg
}

// withPeers is the same job with each transfer's Seq and peer recorded.
func withPeers(tb testing.TB, cfg samples.Config) *samples.Job {
	cfg.P2PNoSeq = false
	return sampletest.Simulate(tb, cfg)
}

// kernelID names a kernel across two simulations of one job.
type kernelID struct {
	rank       int32
	start, dur int64
}

func idOf(t *model.Trace, e int32) kernelID {
	return kernelID{t.Events.Rank[e], t.Events.Start[e], t.Events.Dur[e]}
}

// truePairs are the generator's send→recv pairs, keyed by the recorded
// (communicator, source, destination, Seq) of each end.
func truePairs(t *model.Trace) map[[2]kernelID]bool {
	ends := map[string][]int32{}
	ev := &t.Events
	for i := range ev.Len() {
		c := ev.Coll[i]
		if c < 0 || ev.Kind[i] != model.KindComm {
			continue
		}
		x := t.Colls.At(int(c))
		src, dst := ev.Rank[i], x.Peer
		if x.Op == model.OpRecv {
			src, dst = dst, src
		} else if x.Op != model.OpSend {
			continue
		}
		k := fmt.Sprint(x.Comm, src, dst, x.Seq)
		ends[k] = append(ends[k], int32(i))
	}
	out := map[[2]kernelID]bool{}
	for _, e := range ends {
		if len(e) == 2 {
			a, b := idOf(t, e[0]), idOf(t, e[1])
			out[[2]kernelID{a, b}], out[[2]kernelID{b, a}] = true, true
		}
	}
	return out
}

// wrongPairs counts the two-member send/recv instances that pair kernels
// the generator did not.
func wrongPairs(t *model.Trace, inst []clock.Instance, truth map[[2]kernelID]bool) int {
	n := 0
	for _, in := range inst {
		if in.Op.PointToPoint() && !truth[[2]kernelID{idOf(t, in.Events[0]), idOf(t, in.Events[1])}] {
			n++
		}
	}
	return n
}

func worstError(j *samples.Job, o clock.Offsets) int64 {
	var worst int64
	for _, r := range j.Truth.Ranks {
		worst = max(worst, abs(o.Of(int32(r.Rank))-r.ClockOffsetNs))
	}
	return worst
}

// TestAlignNamesRankWithoutSharedCollective: in default with P2PNoSeq,
// rank 15's communication kernels lose their collective records, so no
// chain of matched pairs joins it to rank 0: it alone is named Unaligned, in one
// warning, and every other rank is still aligned within 20 µs.
func TestAlignNamesRankWithoutSharedCollective(t *testing.T) {
	j := sampletest.Simulate(t, noSeqConfig(t, "default"))
	isolate(j.Trace, 15)
	if _, err := layout.Infer(j.Trace, layout.Flags{}); err != nil {
		t.Fatal(err)
	}
	o := clock.Align(j.Trace, clock.Match(j.Trace))
	if len(o.Unaligned) != 1 || o.Unaligned[0] != 15 || len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], "rank 15") {
		t.Fatalf("unaligned %v, warnings %q; want rank 15 alone, in one warning", o.Unaligned, o.Warnings)
	}
	for _, r := range j.Truth.Ranks {
		if r.Rank != 15 && abs(o.Of(int32(r.Rank))-r.ClockOffsetNs) > 20_000 {
			t.Errorf("rank %d: offset %d ns, planted %d ns", r.Rank, o.Of(int32(r.Rank)), r.ClockOffsetNs)
		}
	}
}

// isolate unlinks every communication kernel of rank r from its
// collective, so that nothing can be matched on r.
func isolate(t *model.Trace, r int32) {
	for i := range t.Events.Len() {
		if t.Events.Rank[i] == r {
			t.Events.Coll[i] = -1
		}
	}
}

func BenchmarkMatchAlignBig64NoSeq(b *testing.B) {
	j := sampletest.Simulate(b, noSeqConfig(b, "big-64"))
	if _, err := layout.Infer(j.Trace, layout.Flags{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		clock.Align(j.Trace, clock.Match(j.Trace))
	}
}
