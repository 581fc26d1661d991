// Package samples is tpptrace's job generator: a discrete-event simulation of
// a Megatron-style TP×PP×DP training job that yields the normalized trace
// (model.Trace) each rank's profiler would record, together with the truth
// (truth.json) computed from the ground-truth timeline with the definitions
// of docs/semantics.md. Format writers live in sub-packages (kinetow).
//
// The simulation model, the scenarios and the annotation names are
// documented in docs/generator.md.
package samples

import (
	"errors"
	"fmt"

	"github.com/tpptrace/tpptrace/model"
)

// Schedules.
const (
	Schedule1F1B        = "1f1b"
	ScheduleGPipe       = "gpipe"
	ScheduleInterleaved = "interleaved" // Megatron's interleaved 1F1B (virtual pipeline)
)

// Config describes a simulated job. Durations are ns, sizes bytes, bandwidths
// bytes per second. The zero value is not valid; start from DefaultConfig.
type Config struct {
	Name            string    `json:"name,omitempty"`
	TP              int       `json:"tp"`
	PP              int       `json:"pp"`
	DP              int       `json:"dp"`
	CP              int       `json:"cp,omitempty"` // context parallel (ring of sequence chunks); 0 means 1
	EP              int       `json:"ep,omitempty"` // expert parallel (every layer is MoE when > 1); 0 means 1
	Microbatches    int       `json:"microbatches"`
	LayersPerStage  int       `json:"layers_per_stage"`
	Schedule        string    `json:"schedule"`                 // "1f1b" | "gpipe" | "interleaved"
	VirtualStages   int       `json:"virtual_stages,omitempty"` // interleaved: model chunks per stage v >= 2
	StageScale      []float64 `json:"stage_scale,omitempty"`    // per-stage compute multiplier; missing entries are 1
	SlowRank        int       `json:"slow_rank"`                // -1: none
	SlowFactor      float64   `json:"slow_factor"`              // the slow rank's kernels take this many times longer
	LateRank        int       `json:"late_rank,omitempty"`      // with LateNs > 0: this rank's host launches each DP collective late
	LateNs          int64     `json:"late_ns,omitempty"`        // before each DP collective, LateRank's host waits for its GPU, then stalls this long
	GPUsPerHost     int       `json:"gpus_per_host"`
	HostOffsetsNs   []int64   `json:"host_offsets_ns,omitempty"` // planted clock offset per host; when empty, drawn in ±MaxHostOffsetNs
	MaxHostOffsetNs int64     `json:"max_host_offset_ns"`
	DPOverlap       bool      `json:"dp_overlap"`     // DP gradient sync in buckets during the last backward, on its own stream
	DistOptimizer   bool      `json:"dist_optimizer"` // reduce-scatter grads + all-gather params instead of all-reduce
	DPBuckets       int       `json:"dp_buckets"`
	P2PMetadata     bool      `json:"p2p_metadata"`            // false: PP send/recv kernels carry no metadata (batched p2p)
	P2PNoSeq        bool      `json:"p2p_no_seq,omitempty"`    // with P2PMetadata: PP send/recv carry their process group and op but no Seq and no peer
	Descriptions    bool      `json:"descriptions"`            // false: process groups have no descriptions ("undefined")
	Dialect         string    `json:"dialect,omitempty"`       // how the profiler records the CPU side: "" (tpptrace), "megatron", "pipelining", "kernel-only" (dialect.go)
	Steps           int       `json:"steps"`                   // ProfilerSteps written
	CutLastStep     bool      `json:"cut_last_step,omitempty"` // the capture ends half-way through the last step on the upper half of the ranks
	FirstStep       int       `json:"first_step"`              // number N of the first ProfilerStep#N
	TruthFrom       int       `json:"truth_from,omitempty"`    // the truth leaves out this many leading steps (a capture analysed without step ranges: the DP-sync period cannot see where the first step starts)
	Seed            int64     `json:"seed"`
	Jitter          float64   `json:"jitter"` // relative σ of kernel durations and transfers

	FwdLayerNs        int64   `json:"fwd_layer_ns"`                // forward compute of one layer for one microbatch
	BwdRatio          float64 `json:"bwd_ratio"`                   // backward = BwdRatio × forward
	LossNs            int64   `json:"loss_ns"`                     // loss on the last stage per microbatch (forward)
	OptimizerNs       int64   `json:"optimizer_ns"`                // optimizer step per layer held
	ActivationBytes   int64   `json:"activation_bytes"`            // PP message per microbatch; TP message when the next two are 0
	TPAttnBytes       int64   `json:"tp_attn_bytes,omitempty"`     // TP message of the attention block per microbatch
	TPMLPBytes        int64   `json:"tp_mlp_bytes,omitempty"`      // TP message of the MLP block per microbatch
	CPBytes           int64   `json:"cp_bytes,omitempty"`          // CP all-gather input (the local K and V chunk) per layer and microbatch; ActivationBytes/2 when 0
	EPBytes           int64   `json:"ep_bytes,omitempty"`          // EP all-to-all input (the routed tokens) per MoE layer and microbatch; ActivationBytes when 0
	SeqParallel       bool    `json:"sequence_parallel,omitempty"` // TP reduce-scatter after, all-gather (of a 1/TP shard) before the parallel linears
	TokenSpread       float64 `json:"token_spread,omitempty"`      // microbatch messages scale by 1 ± this (variable-length samples)
	GradBytesPerLayer int64   `json:"grad_bytes_per_layer"`        // DP gradient bytes per layer
	NVLinkAlphaNs     int64   `json:"nvlink_alpha_ns"`
	NVLinkBps         float64 `json:"nvlink_bps"`
	NetAlphaNs        int64   `json:"net_alpha_ns"`
	NetBps            float64 `json:"net_bps"`
	LaunchNs          int64   `json:"launch_ns"`         // CPU time to launch one kernel
	LaunchLatencyNs   int64   `json:"launch_latency_ns"` // launch to earliest kernel start
	QueueDepth        int     `json:"queue_depth"`       // how many kernels the CPU may run ahead of the GPU
	StepGapNs         int64   `json:"step_gap_ns"`       // host time between a step's sync and the next step
	StartSkewNs       int64   `json:"start_skew_ns"`     // ranks start their first step up to this late
	EndSkewNs         int64   `json:"end_skew_ns"`       // each member of a collective ends up to this long after the common end
	GPUName           string  `json:"gpu_name"`

	// GPU memory (docs/generator.md): with MemoryEvents the traces carry
	// Kineto [memory] instants and the truth peak memory per rank.
	MemoryEvents   bool  `json:"memory_events,omitempty"`
	ActMemBytes    int64 `json:"act_mem_bytes,omitempty"`    // activations one layer keeps per microbatch from its forward to its backward; 4×ActivationBytes when 0
	StaticMemBytes int64 `json:"static_mem_bytes,omitempty"` // parameters, gradients and optimizer state per layer held; 8×GradBytesPerLayer when 0
}

// DefaultConfig is a small, balanced TP2 PP4 DP2 job on H100s.
func DefaultConfig() Config {
	return Config{
		Name: "custom", TP: 2, PP: 4, DP: 2, Microbatches: 8, LayersPerStage: 2,
		Schedule: Schedule1F1B, SlowRank: -1, SlowFactor: 1, GPUsPerHost: 8,
		DPBuckets: 2, P2PMetadata: true, Descriptions: true, Steps: 4, FirstStep: 10,
		Seed: 1, Jitter: 0.01, FwdLayerNs: 900_000, BwdRatio: 2, LossNs: 120_000,
		OptimizerNs: 150_000, ActivationBytes: 8 << 20, TPAttnBytes: 6 << 20, TPMLPBytes: 10 << 20, TokenSpread: 0.25,
		GradBytesPerLayer: 200 << 20,
		NVLinkAlphaNs:     8_000, NVLinkBps: 360e9, NetAlphaNs: 20_000, NetBps: 45e9,
		LaunchNs: 6_000, LaunchLatencyNs: 4_000, QueueDepth: 24, StepGapNs: 200_000, StartSkewNs: 40_000,
		EndSkewNs: 3_000,
		GPUName:   "NVIDIA H100 80GB HBM3",
	}
}

// World is TP·CP·EP·DP·PP.
func (c *Config) World() int { return c.TP * c.cp() * c.ep() * c.DP * c.PP }

// cp and ep are the context- and expert-parallel sizes (0 counts as 1).
func (c *Config) cp() int { return max(c.CP, 1) }
func (c *Config) ep() int { return max(c.EP, 1) }

// Validate reports what is wrong with c, or nil.
func (c *Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.TP < 1 || c.PP < 1 || c.DP < 1 || c.CP < 0 || c.EP < 0 {
		bad("tp, pp and dp must be >= 1, cp and ep >= 0 (got %d, %d, %d, %d, %d)", c.TP, c.PP, c.DP, c.CP, c.EP)
	}
	if c.Microbatches < 1 || c.LayersPerStage < 1 || c.Steps < 1 {
		bad("microbatches, layers per stage and steps must be >= 1 (got %d, %d, %d)", c.Microbatches, c.LayersPerStage, c.Steps)
	}
	if lo, hi := c.truthRange(); c.TruthFrom < 0 || c.TruthFrom > lo || lo >= hi {
		bad("truth_from must leave at least one complete step (got %d of %d steps)", c.TruthFrom, c.Steps)
	}
	c.validateSchedule(bad)
	if _, err := ParseDialect(c.Dialect); err != nil {
		bad("%v", err)
	}
	if c.SlowRank < -1 || c.SlowRank >= c.World() || c.SlowFactor <= 0 {
		bad("slow rank %d (factor %g) is outside the world of %d ranks", c.SlowRank, c.SlowFactor, c.World())
	}
	if c.LateNs < 0 || c.LateNs > 0 && (c.LateRank < 0 || c.LateRank >= c.World()) {
		bad("late rank %d (late by %d ns) is outside the world of %d ranks", c.LateRank, c.LateNs, c.World())
	}
	if c.CutLastStep && c.Steps < 2 {
		bad("a cut last step needs steps >= 2 (got %d)", c.Steps)
	}
	if len(c.StageScale) > c.PP {
		bad("%d stage scales for %d stages", len(c.StageScale), c.PP)
	}
	c.validateTiming(bad)
	return errors.Join(errs...)
}

func (c *Config) validateSchedule(bad func(string, ...any)) {
	switch c.Schedule {
	case Schedule1F1B, ScheduleGPipe:
		if c.VirtualStages > 1 {
			bad("schedule %q with %d virtual stages: only %q has more than one", c.Schedule, c.VirtualStages, ScheduleInterleaved)
		}
	case ScheduleInterleaved:
		v := c.VirtualStages
		if v < 2 || c.PP < 2 || c.Microbatches%max(c.PP, 1) != 0 || c.LayersPerStage%max(v, 1) != 0 {
			bad("schedule %q needs virtual stages >= 2 (got %d), pp >= 2 (got %d), microbatches a multiple of pp (got %d) and layers per stage a multiple of the virtual stages (got %d)",
				c.Schedule, v, c.PP, c.Microbatches, c.LayersPerStage)
		}
	default:
		bad("schedule %q: want %q, %q or %q", c.Schedule, Schedule1F1B, ScheduleGPipe, ScheduleInterleaved)
	}
}

// chunks is the number of model chunks per stage: v when interleaved, else 1.
func (c *Config) chunks() int {
	if c.Schedule == ScheduleInterleaved {
		return max(c.VirtualStages, 1)
	}
	return 1
}

func (c *Config) validateTiming(bad func(string, ...any)) {
	if c.GPUsPerHost < 1 || c.DPBuckets < 1 || c.QueueDepth < 1 {
		bad("gpus per host, dp buckets and queue depth must be >= 1")
	}
	if c.FwdLayerNs <= 0 || c.BwdRatio <= 0 || c.NVLinkBps <= 0 || c.NetBps <= 0 {
		bad("forward time, backward ratio and bandwidths must be > 0")
	}
	if c.Jitter < 0 || c.Jitter > 0.2 || c.MaxHostOffsetNs < 0 || c.StartSkewNs < 0 || c.EndSkewNs < 0 {
		bad("jitter must be in [0, 0.2], the host offset bound, start skew and end skew >= 0")
	}
	if c.TokenSpread < 0 || c.TokenSpread > 0.9 || c.ActivationBytes < 0 || c.TPAttnBytes < 0 || c.TPMLPBytes < 0 || c.CPBytes < 0 || c.EPBytes < 0 {
		bad("token spread must be in [0, 0.9] and message sizes >= 0")
	}
	if n := c.hosts(); len(c.HostOffsetsNs) > 0 && len(c.HostOffsetsNs) != n {
		bad("%d host offsets for %d hosts", len(c.HostOffsetsNs), n)
	}
	for _, s := range c.StageScale {
		if s <= 0 {
			bad("stage scale %g must be > 0", s)
		}
	}
}

// hosts is the number of hosts the world spans.
func (c *Config) hosts() int { return (c.World() + c.GPUsPerHost - 1) / max(c.GPUsPerHost, 1) }

// Place is a rank's coordinate on every axis.
type Place struct{ TP, CP, EP, DP, PP int }

// Place returns rank r's coordinates in Megatron's tp-cp-ep-dp-pp order:
// rank = tp + TP·(cp + CP·(ep + EP·(dp + DP·pp))).
func (c *Config) Place(r int) Place {
	p := Place{TP: r % c.TP}
	r /= c.TP
	p.CP, r = r%c.cp(), r/c.cp()
	p.EP, r = r%c.ep(), r/c.ep()
	p.DP, p.PP = r%c.DP, r/c.DP
	return p
}

// RankAt is the inverse of Place.
func (c *Config) RankAt(p Place) int {
	return p.TP + c.TP*(p.CP+c.cp()*(p.EP+c.ep()*(p.DP+c.DP*p.PP)))
}

// Coord returns rank r's (tp, pp, dp) (see Place for cp and ep).
func (c *Config) Coord(r int) (tp, pp, dp int) {
	p := c.Place(r)
	return p.TP, p.PP, p.DP
}

// RankOf is the rank at (tp, pp, dp) with cp = ep = 0.
func (c *Config) RankOf(tp, pp, dp int) int { return c.RankAt(Place{TP: tp, PP: pp, DP: dp}) }

// span is axis a's size and the rank distance between neighbours on it.
func (c *Config) span(a model.Axis) (size, stride int) {
	switch a {
	case model.AxisTP:
		return c.TP, 1
	case model.AxisCP:
		return c.cp(), c.TP
	case model.AxisEP:
		return c.ep(), c.TP * c.cp()
	case model.AxisDP:
		return c.DP, c.TP * c.cp() * c.ep()
	case model.AxisPP:
		return c.PP, c.TP * c.cp() * c.ep() * c.DP
	}
	return 1, 1
}

// Size is the size of the named axis ("TP", "CP", "EP", "DP", "PP"); false
// for any other name.
func (c *Config) Size(axis string) (int, bool) {
	a := model.ParseAxis(axis)
	if a == model.AxisUnknown || a == model.AxisWorld {
		return 0, false
	}
	n, _ := c.span(a)
	return n, true
}

// coordOn is rank r's coordinate on axis a.
func (c *Config) coordOn(r int, a model.Axis) int {
	size, stride := c.span(a)
	return r / stride % size
}

// Host returns the host name of rank r ("node000").
func (c *Config) Host(r int) string { return fmt.Sprintf("node%03d", r/c.GPUsPerHost) }

func (c *Config) stageScale(s int) float64 {
	if s < len(c.StageScale) {
		return c.StageScale[s]
	}
	return 1
}
