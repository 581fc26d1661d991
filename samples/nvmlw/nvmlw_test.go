package nvmlw

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/gpujoin"
	"github.com/tpptrace/tpptrace/ingest/nvml"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/report/prose"
	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestSlowRankEvidenceFromWrittenSamples writes the samples, reads them back
// through the nvml reader, merges them with the job's trace and checks that
// the join cites the slow GPU's clock against its peers.
func TestSlowRankEvidenceFromWrittenSamples(t *testing.T) {
	job := sampletest.Job(t, "slow-rank")
	paths, err := Write(t.TempDir(), job)
	if err != nil {
		t.Fatal(err)
	}
	st, err := nvml.Read(context.Background(), paths, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	merged, err := model.Merge(job.Trace, st)
	if err != nil {
		t.Fatal(err)
	}
	slow := int32(job.Config.SlowRank)
	var peers []int32
	for _, r := range job.Truth.Ranks {
		if r.PP == job.Truth.Ranks[slow].PP && int32(r.Rank) != slow {
			peers = append(peers, int32(r.Rank))
		}
	}
	lo, hi := merged.Events.RankRange(slow)
	ev, ok := gpujoin.Evidence(merged, slow, peers, merged.Events.Start[lo], merged.Events.Start[hi-1])
	line := prose.Sentence(nil, ev)
	if !ok {
		t.Fatal("no evidence for the slow rank")
	}
	want := int(float64(fullClockMHz)/job.Config.SlowFactor + 0.5)
	for _, s := range []string{"SM clock " + thousands(want) + " MHz vs 1,980 MHz on its peers", "HW slowdown: thermal"} {
		if !strings.Contains(line, s) {
			t.Errorf("evidence %q lacks %q", line, s)
		}
	}
	if _, ok := gpujoin.Evidence(merged, peers[0], []int32{slow}, merged.Events.Start[lo], merged.Events.Start[hi-1]); !ok {
		t.Error("peers have samples too")
	}
}

func thousands(n int) string { return fmt.Sprintf("%d,%03d", n/1000, n%1000) }
