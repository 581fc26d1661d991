package analysis

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report/prose"
	"github.com/tpptrace/tpptrace/samples/nvmlw"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestSlowRankCitesGPUSamples writes the slow-rank scenario as Kineto
// traces and its GPU samples as `tpptrace sample` files, loads both, and
// checks that the slow rank's finding cites its GPU's clock against its
// peers' and the thermal slowdown, and that a gpu_throttle finding names it.
func TestSlowRankCitesGPUSamples(t *testing.T) {
	job := sampletest.Job(t, "slow-rank")
	paths, err := nvmlw.Write(t.TempDir(), job)
	if err != nil {
		t.Fatal(err)
	}
	tr := sampletest.Load(t, source.Options{}, append([]string{sampletest.KinetoDir(t, job)}, paths...)...)
	res := mustAnalyze(t, tr)
	slow, ok := findingOf(res, vocab.KindSlowRank)
	if !ok || slow.Ranks[0] != job.Config.SlowRank {
		t.Fatalf("slow-rank finding %+v, want rank %d", slow, job.Config.SlowRank)
	}
	clock := int(1980/job.Config.SlowFactor + 0.5)
	ev := strings.Join(prose.Evidence(res, slow), "; ")
	for _, want := range []string{fmt.Sprintf("SM clock %d,%03d MHz vs 1,980 MHz on its peers", clock/1000, clock%1000), "91 °C", "HW slowdown: thermal"} {
		if !strings.Contains(ev, want) {
			t.Errorf("slow-rank evidence %q lacks %q", ev, want)
		}
	}
	checkThrottle(t, res, job.Config.SlowRank, clock)
}

func checkThrottle(t *testing.T, res *result.Result, slow, clock int) {
	t.Helper()
	var throttled []int
	for _, f := range res.Findings {
		if f.Kind == vocab.KindGPUThrottle {
			throttled = append(throttled, f.Ranks...)
		}
	}
	if len(throttled) != 1 || throttled[0] != slow {
		t.Errorf("gpu_throttle findings name ranks %v, want [%d]", throttled, slow)
	}
	for _, r := range res.Ranks {
		want := 1980.0
		if r.Rank == slow {
			want = float64(clock)
		}
		if r.GPU == nil || r.GPU.SMClockMHz != want || r.GPU.Samples == 0 {
			t.Errorf("rank %d GPU %+v, want SM clock %.0f MHz", r.Rank, r.GPU, want)
		}
	}
}

// TestPeersOfLeavesTheRankOut checks that a rank's GPU is never its own
// peer: in a stage of two, its peers' clock would be the mean of its own
// and the other's.
func TestPeersOfLeavesTheRankOut(t *testing.T) {
	stage := []int32{3, 5, 7}
	if got := peersOf(nil, stage, 5); !slices.Equal(got, []int32{3, 7}) {
		t.Errorf("peersOf(%v, 5) = %v, want [3 7]", stage, got)
	}
	if got := peersOf(nil, stage, 4); !slices.Equal(got, stage) {
		t.Errorf("peersOf(%v, 4) = %v, want the stage", stage, got)
	}
}
