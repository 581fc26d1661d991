// Package result defines the Result of an analysis: the structured,
// versioned contract that the text report, the JSON output, plots, the TUI,
// exports, `tpptrace compare` and users' scripts consume.
//
// JSON field names are a public contract; per-axis maps are keyed by
// vocab.Axes (and "other"). Times are integer nanoseconds per
// step, averaged over the analysed steps, unless a field says otherwise;
// fractions are in 0..1. Adding fields is a minor change; renaming or
// removing one bumps SchemaVersion.
package result

import (
	"fmt"
	"strings"
)

// SchemaVersion is the version of the JSON form written by this build.
const SchemaVersion = 2

// SchemaMinor counts the additive changes since SchemaVersion was last
// bumped, so that scripts can tell which fields to expect; readers ignore
// it. Version 2 (findings as data: headline and evidence are Statements,
// no longer sentences) starts again at 0. Version 1's minor 1 added
// missing_ranks, phase_source, schedule_evidence, steps_from,
// unaligned_ranks, A2A, and the whatif section.
const SchemaMinor = 0

// Result is the outcome of analysing one job.
type Result struct {
	SchemaVersion int       `json:"schema_version"`
	SchemaMinor   int       `json:"schema_minor,omitempty"`
	Tool          string    `json:"tool"` // "tpptrace <version>"
	Sources       []Source  `json:"sources"`
	Skipped       []Skipped `json:"skipped,omitempty"`
	WorldSize     int       `json:"world_size"`
	// DeclaredWorldSize is the most ranks the inputs say the job has
	// (Kineto's distributedInfo.world_size, nsys's WORLD_SIZE, ...), 0 when
	// they say nothing; MissingRanks are the ranks they declare (below that
	// size, or as a process group's members) with no timeline among the
	// inputs, ascending. Every other figure describes the ranks read only.
	// See docs/semantics.md.
	DeclaredWorldSize int    `json:"declared_world_size,omitempty"`
	MissingRanks      []int  `json:"missing_ranks,omitempty"`
	Layout            Layout `json:"layout"`
	Schedule          string `json:"schedule"` // "1f1b", "gpipe", "interleaved", "none", "unknown"
	Microbatches      int    `json:"microbatches"`
	VirtualStages     int    `json:"virtual_stages,omitempty"` // chunks per stage for interleaved schedules
	// ScheduleEvidence is, per stage, the order of passes the schedule was
	// read from (one rank's first analysed step), and the cue the phases
	// came from; empty when PP = 1.
	ScheduleEvidence []StageOrder `json:"schedule_evidence,omitempty"`
	StepNs           int64        `json:"step_ns"`
	// PeriodNs is the iteration period: the median over ranks of each
	// rank's step_ns (the mean length of its step windows). StepNs is the
	// span from the earliest rank's start to the latest rank's end, longer
	// by the ranks' skew. See docs/semantics.md.
	PeriodNs   int64       `json:"period_ns,omitempty"`
	Iterations []Iteration `json:"iterations"`
	// StepsFrom names what found the steps: "annotations:<family>" (step
	// ranges: ProfilerStep, train_step, iteration, iter, step),
	// "step-regex" (--step-regex), "dp-sync-period" or "world-sync-period"
	// (no step ranges: the period of the data-parallel sync), "kernel-period"
	// (nor a sync: a kernel run once per step), "whole-trace".
	StepsFrom       string       `json:"steps_from,omitempty"`
	Ranks           []RankStats  `json:"ranks"`
	Stages          []StageStats `json:"stages"`
	BottleneckStage int          `json:"bottleneck_stage"`
	StageImbalance  float64      `json:"stage_imbalance"` // max/mean of stage compute
	SlowRanks       []SlowRank   `json:"slow_ranks"`
	Findings        []Finding    `json:"findings"`
	Comms           []CommStats  `json:"comms,omitempty"`
	Clock           ClockStats   `json:"clock"`
	RankSteps       []RankStep   `json:"rank_steps,omitempty"` // per rank and step, for heatmaps
	Timeline        *Timeline    `json:"timeline,omitempty"`   // one representative step, classified
	Warnings        []string     `json:"warnings,omitempty"`
	// Kernels are the GPU kernels of the analysed steps by short name
	// (KernelShortName), the MaxKernels largest by time: what `compare`
	// reads to say which kernels appeared, vanished or grew.
	Kernels []KernelStat `json:"kernels,omitempty"`
	// Throughput and model FLOPs utilization (seed §6.9), present only when
	// the user gave the tokens per step (and, for the FLOPs figures, the
	// model size): a trace does not know the model. TokensPerS is tokens per
	// step over the step time; ModelTFLOPsPerGPU the model's FLOPs per second
	// per GPU (10¹² FLOP/s); MFU that over PeakTFLOPsPerGPU (0..1), whose
	// origin PeakFrom names: "flag" or "gpu-table" (GPUName's dense bf16
	// figure). See docs/semantics.md.
	GPUName           string  `json:"gpu_name,omitempty"` // e.g. "NVIDIA H100 80GB HBM3", when the trace names it
	TokensPerS        float64 `json:"tokens_per_s,omitempty"`
	ModelTFLOPsPerGPU float64 `json:"model_tflops_per_gpu,omitempty"`
	MFU               float64 `json:"mfu,omitempty"`
	PeakTFLOPsPerGPU  float64 `json:"peak_tflops_per_gpu,omitempty"`
	PeakFrom          string  `json:"peak_from,omitempty"` // "flag", "gpu-table"

	WhatIf *WhatIf `json:"whatif,omitempty"` // the what-if replay, when run (--whatif)
}

// KernelStat is one kernel short name over the analysed steps: launches
// and GPU time per step, summed over ranks.
type KernelStat struct {
	Name   string  `json:"name"`
	Count  float64 `json:"count"`   // per step
	TimeNs int64   `json:"time_ns"` // per step, summed over ranks
}

// MaxKernels is how many kernels a Result lists at most.
const MaxKernels = 200

// KernelShortName is a kernel's name without its return type, template
// arguments and parameter list: "void at::native::elementwise_kernel<128,
// 4>(int, ...)" → "at::native::elementwise_kernel".
func KernelShortName(name string) string {
	s := strings.TrimPrefix(strings.TrimSpace(name), "void ")
	var b strings.Builder
	depth := 0
	for _, c := range s {
		switch {
		case c == '<':
			depth++
		case c == '>' && depth > 0:
			depth--
		case c == '(' && depth == 0:
			return strings.TrimSpace(b.String())
		case depth == 0:
			b.WriteRune(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// StageOrder is the pass order one stage's schedule was read from.
type StageOrder struct {
	Stage     int    `json:"stage"`
	Rank      int    `json:"rank"`      // the rank read
	Forwards  int    `json:"forwards"`  // forward passes in the step (v·m)
	Backwards int    `json:"backwards"` // backward passes in the step
	Warmup    int    `json:"warmup"`    // forwards before the first backward
	Schedule  string `json:"schedule"`  // what this stage's order alone names
	Cue       string `json:"cue"`       // the rank's PhaseSource
}

// Source is one input file.
type Source struct {
	Path    string `json:"path"`
	Format  string `json:"format"`
	Version string `json:"version,omitempty"`
}

// Skipped is input that was read but not analysed.
type Skipped struct {
	Source string `json:"source"`
	Offset int64  `json:"offset"`
	Unit   string `json:"unit,omitempty"`
	Reason string `json:"reason"`
	Count  int64  `json:"count"`
}

// Layout is the parallel layout.
type Layout struct {
	TP    int    `json:"tp"`
	PP    int    `json:"pp"`
	DP    int    `json:"dp"`
	CP    int    `json:"cp,omitempty"`
	EP    int    `json:"ep,omitempty"`
	Order string `json:"order"` // Megatron order string, fastest first: "tp-cp-ep-dp-pp"
	By    string `json:"by"`    // how it was decided: "flags", "descriptions", "members", "traffic", "single", "op-table"
}

// Iteration is one analysed training step.
type Iteration struct {
	Index      int   `json:"index"`    // ProfilerStep number or 0-based position
	StartNs    int64 `json:"start_ns"` // aligned clock (rank 0's)
	DurationNs int64 `json:"duration_ns"`
}

// RankStats is one rank's breakdown, averaged per step.
type RankStats struct {
	Rank              int              `json:"rank"`
	Host              string           `json:"host"`
	LocalGPU          int              `json:"local_gpu"`
	TP                int              `json:"tp"`
	PP                int              `json:"pp"`
	DP                int              `json:"dp"`
	CP                int              `json:"cp,omitempty"`
	EP                int              `json:"ep,omitempty"`
	ClockOffsetNs     int64            `json:"clock_offset_ns"` // this rank's clock minus rank 0's
	StepNs            int64            `json:"step_ns"`
	ComputeNs         int64            `json:"compute_ns"`
	IdleNs            int64            `json:"idle_ns"`
	MemcpyNs          int64            `json:"memcpy_ns"`
	BubbleNs          int64            `json:"bubble_ns"`
	BubbleFraction    float64          `json:"bubble_fraction"`
	BubbleFillDrainNs int64            `json:"bubble_fill_drain_ns"`
	BubbleSteadyNs    int64            `json:"bubble_steady_ns"`
	CommNs            map[string]int64 `json:"comm_ns"`               // axis -> union time of its comm kernels
	ExposedNs         map[string]int64 `json:"exposed_ns"`            // axis -> part not covered by compute
	WaitNs            map[string]int64 `json:"wait_ns,omitempty"`     // axis -> time waiting for the last member
	TransferNs        map[string]int64 `json:"transfer_ns,omitempty"` // axis -> time after the last member arrived
	// ExposedWaitNs + ExposedTransferNs = ExposedNs: the exposed time spent
	// waiting for the last member (for PP, the neighbour), and after it arrived.
	ExposedWaitNs     map[string]int64 `json:"exposed_wait_ns,omitempty"`
	ExposedTransferNs map[string]int64 `json:"exposed_transfer_ns,omitempty"`
	// BubblePPWaitNs and BubblePPTransferNs are the parts of BubbleNs during
	// which a PP send/recv waits for the neighbour, and transfers.
	// PhaseSource is the cue this rank's forward/backward passes came from:
	// "annotations (forward_step#N)", "annotations (PP:<s><F|B|I|W><mb>)",
	// "annotations (Forward i / Backward i)", "autograd", "pp-p2p"; empty
	// when none was found or PP = 1.
	PhaseSource        string    `json:"phase_source,omitempty"`
	BubblePPWaitNs     int64     `json:"bubble_pp_wait_ns,omitempty"`
	BubblePPTransferNs int64     `json:"bubble_pp_transfer_ns,omitempty"`
	GPU                *GPUStats `json:"gpu,omitempty"` // its GPU over the analysed steps, when GPU samples were given
	// PeakMemBytes is the most GPU memory the allocator held for tensors
	// over the analysed steps (Kineto [memory] "Total Allocated"); 0 when
	// the trace has no memory events.
	PeakMemBytes int64 `json:"peak_mem_bytes,omitempty"`
}

// GPUStats is what a rank's GPU did over the analysed steps, from NVML
// samples: medians (-1 when not sampled), and every reason and XID seen.
type GPUStats struct {
	Samples      int     `json:"samples"`
	SMClockMHz   float64 `json:"sm_clock_mhz"`
	SMUtilPct    float64 `json:"sm_util_pct"`
	PowerW       float64 `json:"power_w"`
	TempC        float64 `json:"temp_c"`
	ClockReasons uint64  `json:"clock_reasons,omitempty"` // NVML clock-event reason bits, ORed
	Reasons      string  `json:"reasons,omitempty"`       // the same in words: "HW slowdown: thermal"
	XIDs         []int32 `json:"xids,omitempty"`
}

// StageStats is one pipeline stage, averaged over its ranks and steps.
//
// Without a pipeline (layout PP = 1) there is one stage holding every
// rank; its BubbleNs and BubbleFraction (like the ranks' bubble fields)
// are then idle time: the GPU runs neither compute nor communication
// (copies at most). IdealBubbleFraction is 0, no pipeline_bubble finding is
// made, and the text report shows the column as "idle".
type StageStats struct {
	Stage               int              `json:"stage"`
	Ranks               []int            `json:"ranks"`
	ComputeNs           int64            `json:"compute_ns"`
	ForwardNs           int64            `json:"forward_ns,omitempty"`
	BackwardNs          int64            `json:"backward_ns,omitempty"`
	BubbleNs            int64            `json:"bubble_ns"`
	BubbleFraction      float64          `json:"bubble_fraction"`
	IdealBubbleFraction float64          `json:"ideal_bubble_fraction"`
	ExposedNs           map[string]int64 `json:"exposed_ns"`
	// BubblePPWaitNs and BubblePPTransferNs are the stage means of the
	// ranks' fields of the same name: the part of BubbleNs in which a PP
	// send/recv waits for the neighbour, and transfers (exposed PP).
	BubblePPWaitNs     int64 `json:"bubble_pp_wait_ns,omitempty"`
	BubblePPTransferNs int64 `json:"bubble_pp_transfer_ns,omitempty"`
	// PeakMemBytes is the largest PeakMemBytes of the stage's ranks.
	PeakMemBytes int64 `json:"peak_mem_bytes,omitempty"`
}

// SlowRank is a rank that holds its peers back.
type SlowRank struct {
	Rank          int         `json:"rank"`
	Score         float64     `json:"score"`          // robust z-score of compute against peers doing the same work
	ComputeExcess float64     `json:"compute_excess"` // fraction slower than its peers' median
	BlameNs       int64       `json:"blame_ns"`       // per step: time others waited for it in collectives
	Evidence      []Statement `json:"evidence"`
}

// CommStats summarizes one communicator. AlphaNs and BetaNsPerByte are the
// α-β fit of its dominant class of transfers in Links (the one with the
// most instances; intra-host on a tie), so that a group spread over hosts
// does not mix NVLink and network transfers in one fit.
type CommStats struct {
	ID            string     `json:"id"`
	Name          string     `json:"name,omitempty"`
	Axis          string     `json:"axis"`
	AxisBy        string     `json:"axis_by"`
	Members       []int      `json:"members"`
	Hosts         int        `json:"hosts"`
	Count         int        `json:"count"`            // collective instances per step
	TimeNs        int64      `json:"time_ns"`          // per step, summed over instances, averaged over members
	Bytes         int64      `json:"bytes"`            // per step
	AlphaNs       float64    `json:"alpha_ns"`         // fitted latency per message
	BetaNsPerByte float64    `json:"beta_ns_per_byte"` // fitted time per byte
	Links         []LinkFit  `json:"links,omitempty"`  // α-β fit per link class and op
	Points        []SizeTime `json:"points,omitempty"` // message size vs transfer time samples
}

// LinkFit is the least-squares fit transfer = α + β·bytes of one class of
// a communicator's instances: one op over one link class.
type LinkFit struct {
	Link          string  `json:"link"` // "intra-host" (all members on one host), "inter-host", "unknown" (a member's host is not named)
	Op            string  `json:"op"`   // "all_reduce", ...; "send_recv" for point-to-point transfers
	Count         int     `json:"count"`
	AlphaNs       float64 `json:"alpha_ns"`
	BetaNsPerByte float64 `json:"beta_ns_per_byte"`
}

// SizeTime is one collective instance: message size and transfer time.
type SizeTime struct {
	Bytes  int64 `json:"bytes"`
	TimeNs int64 `json:"time_ns"`
}

// ClockStats reports clock alignment.
type ClockStats struct {
	Method     string `json:"method"`      // "collective-end", "none"
	ResidualNs int64  `json:"residual_ns"` // median absolute residual of matched collective ends after alignment
	Matched    int    `json:"matched"`     // collective instances used
	// UnalignedRanks are the ranks that no chain of matched collectives or
	// transfers joins to rank 0: their offset is unknown (left at 0).
	UnalignedRanks []int `json:"unaligned_ranks,omitempty"`
}

// RankStep is one rank's figures in one step.
type RankStep struct {
	Rank      int   `json:"rank"`
	Iteration int   `json:"iteration"`
	StepNs    int64 `json:"step_ns"`
	ComputeNs int64 `json:"compute_ns"`
	BubbleNs  int64 `json:"bubble_ns"`
}

// Timeline is one step classified into segments per rank, on the aligned clock.
type Timeline struct {
	Iteration int           `json:"iteration"`
	StartNs   int64         `json:"start_ns"`
	EndNs     int64         `json:"end_ns"`
	Rows      []TimelineRow `json:"rows"`
}

// TimelineRow is one rank's segments.
type TimelineRow struct {
	Rank     int       `json:"rank"`
	Stage    int       `json:"stage"`
	Segments []Segment `json:"segments"`
}

// Segment is a run of one category (vocab.Categories). Category is one of "compute",
// "tp", "pp", "dp", "tp_exposed", "pp_exposed", "dp_exposed", "cp_exposed",
// "ep_exposed", "a2a_exposed", "memcpy", "pp_wait", "bubble", "idle" (exposed =
// communication with no compute under it).
//
// With pipeline parallelism the bubble (nothing but PP communication,
// copies or nothing running) is split: "pp_wait" is a PP send/recv waiting
// for its neighbour, a part of the bubble that every view draws like one;
// "pp_exposed" is a PP transfer after the neighbour arrived (the
// exposed_pp_comm finding); "memcpy" a copy; "bubble" the GPU idle. Per
// rank, pp_wait sums to bubble_pp_wait_ns, pp_exposed to
// bubble_pp_transfer_ns, and pp_wait + pp_exposed + memcpy + bubble to the
// step's bubble_ns. Without pipeline parallelism idle time is "idle".
type Segment struct {
	StartNs  int64  `json:"start_ns"`
	EndNs    int64  `json:"end_ns"`
	Category string `json:"category"`
	Micro    int    `json:"micro,omitempty"`
	Phase    string `json:"phase,omitempty"` // "fwd", "bwd" when known
}

// String names the layout as "TP2 PP4 DP2", adding "CP2 EP4" when either
// is used.
func (l Layout) String() string {
	s := fmt.Sprintf("TP%d PP%d DP%d", l.TP, l.PP, l.DP)
	if l.CP > 1 || l.EP > 1 {
		s += fmt.Sprintf(" CP%d EP%d", max(l.CP, 1), max(l.EP, 1))
	}
	return s
}

// RankRanges writes sorted ranks with runs collapsed: "0-3,6".
func RankRanges(rs []int) string { return rankRuns(rs, ",", "-") }

// RankSpans writes sorted ranks with runs collapsed for reading: "16–63, 70".
func RankSpans(rs []int) string { return rankRuns(rs, ", ", "–") }

func rankRuns(rs []int, sep, dash string) string {
	var b strings.Builder
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if i > 0 {
			b.WriteString(sep)
		}
		fmt.Fprint(&b, rs[i])
		if j > i {
			fmt.Fprintf(&b, "%s%d", dash, rs[j])
		}
		i = j + 1
	}
	return b.String()
}
