package samples

import (
	"strings"
	"testing"
)

func TestBadConfigsAreErrors(t *testing.T) {
	cases := map[string]func(*Config){
		"tp, pp and dp":    func(c *Config) { c.TP = 0 },
		"microbatches":     func(c *Config) { c.Microbatches = 0 },
		"schedule":         func(c *Config) { c.Schedule = "interleaved" },
		"outside":          func(c *Config) { c.SlowRank = c.World() },
		"stage scales":     func(c *Config) { c.StageScale = make([]float64, c.PP+1) },
		"host offsets for": func(c *Config) { c.HostOffsetsNs = []int64{1, 2, 3} },
		"jitter":           func(c *Config) { c.Jitter = 0.5 },
	}
	for want, mutate := range cases {
		c := DefaultConfig()
		mutate(&c)
		_, err := Simulate(c)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("config with bad %s: Simulate error %v, want one mentioning %q", want, err, want)
		}
	}
}

func TestCoordRoundTripsMegatronOrder(t *testing.T) {
	c := DefaultConfig()
	c.TP, c.PP, c.DP = 2, 3, 4
	for r := range c.World() {
		tp, pp, dp := c.Coord(r)
		if got := tp + c.TP*(dp+c.DP*pp); got != r || c.RankOf(tp, pp, dp) != r {
			t.Fatalf("rank %d → (tp %d, pp %d, dp %d) → %d", r, tp, pp, dp, got)
		}
	}
}

func TestScenarioTruthPlantsWhatTheyClaim(t *testing.T) {
	if tr := scenarioJob(t, "slow-last-stage").Truth; tr.BottleneckStage != tr.PP-1 {
		t.Errorf("slow-last-stage: bottleneck stage %d, want %d", tr.BottleneckStage, tr.PP-1)
	}
	sr := scenarioJob(t, "slow-rank").Truth
	slow, peer := sr.Ranks[sr.SlowRank], sr.Ranks[sr.SlowRank-1]
	if ratio := float64(slow.ComputeNs) / float64(peer.ComputeNs); ratio < 1.15 || ratio > 1.25 {
		t.Errorf("slow-rank: compute ratio to its TP peer %.3f, want about 1.2", ratio)
	}
	if peer.CommNs["TP"] < 2*slow.CommNs["TP"] {
		t.Errorf("slow-rank: the TP peer should wait in all-reduce (TP comm %d vs the slow rank's %d)", peer.CommNs["TP"], slow.CommNs["TP"])
	}
	ov, ex := scenarioJob(t, "dp-overlap").Truth, scenarioJob(t, "dp-exposed").Truth
	if ov.Ranks[0].ExposedNs["DP"] >= ex.Ranks[0].ExposedNs["DP"] {
		t.Errorf("dp-overlap exposes %d ns of DP, dp-exposed %d: overlap should expose less", ov.Ranks[0].ExposedNs["DP"], ex.Ranks[0].ExposedNs["DP"])
	}
	g, f := scenarioJob(t, "balanced-gpipe").Truth, scenarioJob(t, "balanced-1f1b").Truth
	if g.Schedule != ScheduleGPipe || f.Schedule != Schedule1F1B {
		t.Errorf("schedules %q, %q", g.Schedule, f.Schedule)
	}
	skew := scenarioJob(t, "clock-skew").Truth
	if skew.Ranks[len(skew.Ranks)-1].ClockOffsetNs == 0 {
		t.Errorf("clock-skew: the last host has no offset")
	}
}

func BenchmarkSimulateBig64(b *testing.B) {
	c, _ := Lookup("big-64")
	for b.Loop() {
		if _, err := Simulate(c); err != nil {
			b.Fatal(err)
		}
	}
}
