package result

// WhatIf is the what-if replay of the analysed steps (analysis/whatif,
// docs/semantics.md): the op graph's self-check, the step without launch
// delays and at ideal durations, the slowdown S and its attribution, the
// published fix figures M_W and M_S, tpptrace's scenarios and the critical
// path. Present only when the analysis ran it (--whatif).
type WhatIf struct {
	Ops    int `json:"ops"`
	Groups int `json:"groups"` // synchronisation groups: matched collectives, PP pairs
	// DissolvedGroups were on a cycle of the inferred graph: their members
	// replay with their recorded durations (waits included).
	DissolvedGroups int `json:"dissolved_groups,omitempty"`

	SelfCheckErrNs float64 `json:"self_check_err_ns"` // worst |replayed − recorded| step, measured inputs
	SelfCheckRel   float64 `json:"self_check_rel"`    // the same over the step

	TraceStepNs    int64   `json:"trace_step_ns"`    // recorded mean step (first GPU op start to last end)
	NoDelayStepNs  int64   `json:"no_delay_step_ns"` // T_ori: replayed without launch delays
	IdealStepNs    int64   `json:"ideal_step_ns"`    // T_ideal: every op type at its ideal duration
	LaunchSlowdown float64 `json:"launch_slowdown"`  // trace / no-delay
	S              float64 `json:"s"`                // no-delay / ideal

	SByRank     []WhatIfShare `json:"s_by_rank,omitempty"` // up to 64 ranks
	SByStage    []WhatIfShare `json:"s_by_stage,omitempty"`
	SByDP       []WhatIfShare `json:"s_by_dp,omitempty"`
	SlowWorkers []int32       `json:"slow_workers,omitempty"` // the ⌈3 %⌉ ranks by min(S_dp, S_stage)

	FixSlowWorkers WhatIfFix `json:"fix_slow_workers"` // M_W
	FixLastStage   WhatIfFix `json:"fix_last_stage"`   // M_S

	Scenarios []WhatIfScenario `json:"scenarios,omitempty"`
	Withheld  string           `json:"withheld,omitempty"` // why no scenario is given (self-check above 1 %)

	CriticalPath []PathSegment `json:"critical_path,omitempty"` // mean over steps, largest first
	// CriticalPathOps is the critical path of one step (the timeline's, else
	// the first analysed), in time order, on the aligned clock: what the
	// Perfetto export links with flow arrows. At most MaxPathOps.
	CriticalPathStep int      `json:"critical_path_step,omitempty"`
	CriticalPathOps  []PathOp `json:"critical_path_ops,omitempty"`
}

// MaxPathOps bounds CriticalPathOps.
const MaxPathOps = 5000

// PathOp is one op on the critical path.
type PathOp struct {
	Rank     int    `json:"rank"`
	Name     string `json:"name"` // op type: kernel name, "AXIS:kernel" for a collective
	StartNs  int64  `json:"start_ns"`
	EndNs    int64  `json:"end_ns"`
	Category string `json:"category"`
}

// WhatIfShare is S with the ops of one stage or DP replica measured and
// the rest ideal.
type WhatIfShare struct {
	ID int     `json:"id"`
	S  float64 `json:"s"`
}

// WhatIfFix is a fix of the published analysis: StepNs with the selection at
// ideal (T_rem), AddStepNs with only the selection measured (T_add), and M
// the share of the slowdown the fix removes.
type WhatIfFix struct {
	StepNs    int64   `json:"step_ns"`
	AddStepNs int64   `json:"add_step_ns"`
	M         float64 `json:"m"`
}

// WhatIfScenario is one counterfactual: its predicted mean step and gain.
type WhatIfScenario struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
	StepNs  int64  `json:"step_ns"`
	GainNs  int64  `json:"gain_ns"` // recorded step − predicted
	Changed int    `json:"changed"` // ops whose inputs changed
}

// PathSegment is one category of the critical path ("compute stage 2",
// "PP transfer", "launch delay") and its mean time per step.
type PathSegment struct {
	Category string `json:"category"`
	Ns       int64  `json:"ns"`
}
