package vocab

// Finding kinds: the kind names of result.Finding.
const (
	KindBubble       = "pipeline_bubble"
	KindExposedTP    = "exposed_tp_comm"
	KindExposedPP    = "exposed_pp_comm"
	KindExposedDP    = "exposed_dp_comm"
	KindExposedCP    = "exposed_cp_comm"
	KindExposedEP    = "exposed_ep_comm"
	KindExposedA2A   = "exposed_a2a_comm" // an all-to-all that is not expert parallelism (embedding exchange)
	KindExposedOther = "exposed_other_comm"
	KindImbalance    = "stage_imbalance"
	KindSlowRank     = "slow_rank"
	KindTopology     = "topology"
	KindGPUThrottle  = "gpu_throttle"
	KindRankPair     = "rank_pair_difference" // two ranks doing the same work differ; too few for a slow-rank score
	KindLateRank     = "late_rank"            // arrives last at its collectives without computing more: its host launches them late
	KindGPUIdle      = "gpu_idle"             // without a pipeline, the GPU runs nothing for a share of the step
	KindMemoryPeak   = "memory_peak"          // one stage's peak GPU memory is far above the others'
	// KindMissingRanks: the inputs declare ranks they hold no trace of; the
	// analysis covers the others only. It has no cost and comes first.
	KindMissingRanks = "missing_ranks"
)

// FindingKind is one kind of finding: its name in the Result, the alias
// `analyze --fail-on` takes, what it means, what its cost counts, what its
// severity means, and the timeline category that shows its cost ("" when
// none does).
type FindingKind struct {
	Name, Alias, Help, Cost, Severity, Category string
}

// What a severity means, by the rule that grades it. SeverityByShare:
// the cost's share of the step grades it (SeverityOf): high ≥ 20 %,
// medium ≥ 10 %, low ≥ 3 %, else info.
const (
	SeverityByShare = "by share"
	costNone        = "none of its own"
)

// FindingKinds is the registry of finding kinds, in the order help and
// docs list them: the one table `--fail-on`, its help, the TUI, the docs
// (docs/semantics.md, checked by a test) and the analysis read.
var FindingKinds = []FindingKind{
	{KindMissingRanks, "missing", "ranks declared but not traced (fails whenever present)", costNone, "always high", ""},
	{KindBubble, "bubble", "pipeline bubble per step", "mean bubble less the PP transfer", SeverityByShare, CatBubble},
	{KindExposedTP, "tp", "exposed TP communication", "mean exposed TP time less the wait for named slow and late ranks", SeverityByShare, CatTPExposed},
	{KindExposedPP, "pp", "exposed PP transfer", "mean PP transfer with nothing else running", SeverityByShare, CatPPExposed},
	{KindExposedDP, "dp", "exposed DP communication", "mean exposed DP time less the wait for named slow and late ranks", SeverityByShare, CatDPExposed},
	{KindExposedCP, "cp", "exposed CP communication", "mean exposed CP time less the wait for named slow and late ranks", SeverityByShare, CatCPExposed},
	{KindExposedEP, "ep", "exposed EP communication", "mean exposed EP time less the wait for named slow and late ranks", SeverityByShare, CatEPExposed},
	{KindExposedA2A, "a2a", "exposed all-to-all that is not expert parallelism", "mean exposed A2A time less the wait for named slow and late ranks", SeverityByShare, CatA2AExposed},
	{KindExposedOther, "other", "exposed communication on no named axis", "mean exposed time less the wait for named slow and late ranks", SeverityByShare, ""},
	{KindImbalance, "imbalance", "stage imbalance", "the step time saved if every stage took the mean", SeverityByShare, CatCompute},
	{KindSlowRank, "slow", "a slow rank", "its blame in collectives, or its compute excess", SeverityByShare, CatCompute},
	{KindLateRank, "late", "a rank launching its collectives late", "the wait it causes, over the number of ranks", SeverityByShare, CatTPExposed},
	{KindRankPair, "pair", "two ranks doing the same work differ", "the slower rank's blame in collectives", "always low", ""},
	{KindGPUIdle, "idle", "idle GPU without a pipeline", "mean idle time", SeverityByShare, CatIdle},
	{KindTopology, "topology", "a TP group across hosts", costNone + " (the exposed TP time counts it)",
		"medium; a TP group across hosts takes the grade of the exposed TP time's share", ""},
	{KindGPUThrottle, "gpu", "a throttled GPU", costNone + " (its slow rank or stage counts it)", "high with an XID, else medium", ""},
	{KindMemoryPeak, "memory", "one stage's peak memory far above the others'", costNone, "always medium", ""},
}

// LookupKind is the kind that name or its alias names.
func LookupKind(name string) (FindingKind, bool) {
	for _, k := range FindingKinds {
		if name == k.Name || name == k.Alias {
			return k, true
		}
	}
	return FindingKind{}, false
}

// ExposedKind is the kind of the exposed-communication finding of an axis
// (or AxisOther): "TP" → "exposed_tp_comm".
func ExposedKind(axis string) string {
	for _, k := range FindingKinds {
		if k.Name == "exposed_"+lower(axis)+"_comm" {
			return k.Name
		}
	}
	return KindExposedOther
}

// Severities, most severe first.
const (
	SevHigh   = "high"
	SevMedium = "medium"
	SevLow    = "low"
	SevInfo   = "info"
)

// SeverityOf grades a cost that is share of the step (SeverityByShare).
func SeverityOf(share float64) string {
	switch {
	case share >= 0.20:
		return SevHigh
	case share >= 0.10:
		return SevMedium
	case share >= 0.03:
		return SevLow
	default:
		return SevInfo
	}
}
