package samples

import (
	"fmt"
	"slices"
)

// Scenario is a named configuration with a one-line purpose.
type Scenario struct {
	Name    string
	Summary string
	Config  func() Config
}

// Scenarios is the registry used by tests and `tpptrace samples gen`.
var Scenarios = []Scenario{
	{"default", "TP2 PP4 DP2, m=8, 1F1B, rank 5 20% slower, last stage 15% heavier, ±300 µs host offsets, DP sync not overlapped", defaultScenario},
	{"balanced-1f1b", "TP2 PP4 DP2, m=8, 1F1B, no imbalance: the bubble is the ideal (p−1)/(m+p−1) plus transfers", balanced1F1B},
	{"balanced-gpipe", "as balanced-1f1b with the GPipe schedule", balancedGPipe},
	{"slow-last-stage", "TP2 PP4 DP1, the last stage 30% heavier: it is the bottleneck", slowLastStage},
	{"slow-rank", "TP2 PP2 DP2, rank 3 20% slower: its TP peer waits in all-reduce, the pipeline stretches", slowRank},
	{"clock-skew", "TP2 PP2 DP2 on 4 GPUs per host, host clocks ±300 µs apart", clockSkew},
	{"dp-overlap", "as dp-exposed with the gradient all-reduce in 4 buckets overlapped with the last backward", dpOverlap},
	{"dp-exposed", "TP1 PP2 DP4 on 2 GPUs per host, 4 layers per stage: gradient all-reduce after the backward, over the network: exposed DP time", dpExposed},
	{"p2p-nometa", "TP2 PP4 DP1, batched p2p: send/recv kernels carry no metadata; no group descriptions", p2pNoMeta},
	{"interleaved", "TP2 PP4 DP1, m=8, interleaved 1F1B with v=2 model chunks per stage (4 layers each): ideal bubble (p−1)/(v·m+p−1)", interleaved},
	{"cut-last-step", "TP2 PP4 DP2, m=8, 4 steps; the capture ends half-way through the last step on ranks 8–15: truth lists the 3 complete steps", cutLastStep},
	{"late-rank", "TP2 PP1 DP4, no pipeline: rank 5's host syncs and stalls 1.5 ms before each of its 4 DP gradient buckets, so its DP peers wait for it", lateRank},
	{"cp2", "TP2 CP2 PP2 DP1, context parallel: a K/V all-gather before each attention forward, a reduce-scatter of its gradients after each attention backward, over the CP group", cp2},
	{"moe-ep4", "TP2 EP4 PP2 DP1 (16 ranks, 2 hosts), every layer MoE: two all-to-alls (dispatch, combine) per layer and pass over the EP group", moeEP4},
	{"big-64", "TP4 PP4 DP4 (64 ranks, 8 hosts), 3 steps, distributed optimizer (reduce-scatter + all-gather), for benchmarks", big64},
}

// Lookup returns the configuration of the named scenario.
func Lookup(name string) (Config, error) {
	i := slices.IndexFunc(Scenarios, func(s Scenario) bool { return s.Name == name })
	if i < 0 {
		return Config{}, fmt.Errorf("unknown scenario %q (see 'tpptrace samples list')", name)
	}
	c := Scenarios[i].Config()
	c.Name = name
	return c, nil
}

func defaultScenario() Config {
	c := DefaultConfig()
	c.SlowRank, c.SlowFactor = 5, 1.2
	c.StageScale = []float64{1, 1, 1, 1.15}
	c.MaxHostOffsetNs = 300_000
	c.Seed = 42
	return c
}

func balanced1F1B() Config { return DefaultConfig() }

func balancedGPipe() Config {
	c := DefaultConfig()
	c.Schedule = ScheduleGPipe
	return c
}

func slowLastStage() Config {
	c := DefaultConfig()
	c.DP, c.StageScale = 1, []float64{1, 1, 1, 1.3}
	return c
}

func slowRank() Config {
	c := DefaultConfig()
	c.PP, c.SlowRank, c.SlowFactor = 2, 3, 1.2
	return c
}

func clockSkew() Config {
	c := DefaultConfig()
	c.PP, c.GPUsPerHost, c.MaxHostOffsetNs, c.Seed = 2, 4, 300_000, 7
	return c
}

func dpOverlap() Config {
	c := dpExposed()
	c.DPOverlap = true
	return c
}

func dpExposed() Config {
	c := DefaultConfig()
	c.TP, c.PP, c.DP, c.GPUsPerHost = 1, 2, 4, 2
	c.LayersPerStage, c.DPBuckets, c.GradBytesPerLayer = 4, 4, 50<<20
	return c
}

func p2pNoMeta() Config {
	c := DefaultConfig()
	c.DP, c.P2PMetadata, c.Descriptions = 1, false, false
	return c
}

func big64() Config {
	c := DefaultConfig()
	c.TP, c.PP, c.DP, c.Steps, c.Microbatches, c.LayersPerStage = 4, 4, 4, 3, 8, 1
	c.MaxHostOffsetNs, c.DistOptimizer = 200_000, true
	return c
}

func interleaved() Config {
	c := DefaultConfig()
	c.DP, c.Schedule, c.VirtualStages, c.LayersPerStage = 1, ScheduleInterleaved, 2, 4
	return c
}

func cutLastStep() Config {
	c := DefaultConfig()
	c.CutLastStep = true
	return c
}

func lateRank() Config {
	c := DefaultConfig()
	c.PP, c.DP, c.DPBuckets = 1, 4, 4
	c.LateRank, c.LateNs = 5, 1_500_000
	return c
}

func cp2() Config {
	c := DefaultConfig()
	c.PP, c.DP, c.CP = 2, 1, 2
	return c
}

func moeEP4() Config {
	c := DefaultConfig()
	c.PP, c.DP, c.EP = 2, 1, 4
	return c
}

// Big64 simulates big-64, the job of the project's benchmarks, with its
// layers per stage and DP size changed where given (0 keeps the
// scenario's): the 64-rank benchmarks use 4 layers, the scale ones 16·dp
// ranks.
func Big64(layers, dp int) (*Job, error) {
	cfg, err := Lookup("big-64")
	if err != nil {
		return nil, err
	}
	if layers > 0 {
		cfg.LayersPerStage = layers
	}
	if dp > 0 {
		cfg.DP = dp
	}
	return Simulate(cfg)
}
