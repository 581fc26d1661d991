package explore

import (
	"context"
	"testing"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

// TestBuildKeepsEveryGPUEventOnTheAlignedClock: each lane holds its
// rank's GPU kernels, copies and memsets, sorted, each at its trace start
// minus the rank's clock offset; the generator's planted host offsets come
// back as lane starts that differ from the raw ones.
func TestBuildKeepsEveryGPUEventOnTheAlignedClock(t *testing.T) {
	cfg, err := samples.Lookup("default")
	if err != nil {
		t.Fatal(err)
	}
	job, err := samples.Simulate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr := job.Trace
	_, d, err := analysis.AnalyzeDetail(context.Background(), tr, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := Build(tr, d)
	if len(data.Lanes) != len(tr.Ranks) || len(data.Steps) == 0 {
		t.Fatalf("%d lanes for %d ranks, %d steps", len(data.Lanes), len(tr.Ranks), len(data.Steps))
	}
	ev := &tr.Events
	shifted := 0
	for _, rk := range tr.Ranks {
		lane, off := data.Lane(int(rk.Rank)), d.Offsets.Of(rk.Rank)
		lo, hi := ev.RankRange(rk.Rank)
		if off != 0 {
			shifted++
		}
		k := 0
		for i := lo; i < hi; i++ {
			switch ev.Kind[i] {
			case model.KindCompute, model.KindComm, model.KindMemcpy, model.KindMemset:
			default:
				continue
			}
			if k >= lane.Len() || lane.Start[k] != ev.Start[i]-off || lane.Dur[k] != ev.Dur[i] || lane.Name[k] != ev.Name[i] {
				t.Fatalf("rank %d event %d: lane holds %d events, want %d at %d", rk.Rank, k, lane.Len(), ev.Name[i], ev.Start[i]-off)
			}
			k++
		}
		if k != lane.Len() {
			t.Fatalf("rank %d: %d lane events, %d GPU events", rk.Rank, lane.Len(), k)
		}
	}
	if shifted == 0 {
		t.Error("no lane moved onto the aligned clock, though the scenario plants host offsets")
	}
}
