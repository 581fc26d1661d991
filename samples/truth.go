package samples

// Truth is what the generator knows about a simulated job: the figures the
// analysis must recover, per docs/semantics.md. It is written as truth.json
// beside the traces.
type Truth struct {
	Config          Config       `json:"config"`
	WorldSize       int          `json:"world_size"`
	Schedule        string       `json:"schedule"` // "1f1b", "gpipe"
	Microbatches    int          `json:"microbatches"`
	Steps           []int        `json:"steps"`   // ProfilerStep numbers that are complete on every rank
	StepNs          int64        `json:"step_ns"` // per docs/semantics.md
	Ranks           []TruthRank  `json:"ranks"`
	Stages          []TruthStage `json:"stages"`
	BottleneckStage int          `json:"bottleneck_stage"`
	SlowRank        int          `json:"slow_rank"` // -1 when none was planted
	IdealBubble     float64      `json:"ideal_bubble_fraction"`
}

// TruthRank is one rank's figures, per step averaged over Steps.
type TruthRank struct {
	Rank           int              `json:"rank"`
	Host           string           `json:"host"`
	TP             int              `json:"tp"`
	PP             int              `json:"pp"`
	DP             int              `json:"dp"`
	ClockOffsetNs  int64            `json:"clock_offset_ns"` // relative to rank 0
	StepNs         int64            `json:"step_ns"`
	ComputeNs      int64            `json:"compute_ns"`
	IdleNs         int64            `json:"idle_ns"`
	BubbleNs       int64            `json:"bubble_ns"`
	BubbleFraction float64          `json:"bubble_fraction"`
	CommNs         map[string]int64 `json:"comm_ns"`
	ExposedNs      map[string]int64 `json:"exposed_ns"`
}

// TruthStage is one stage's figures.
type TruthStage struct {
	Stage     int   `json:"stage"`
	ComputeNs int64 `json:"compute_ns"`
}
