package vocab

// Units of a finding's figures (result.Figure.Unit).
const (
	UnitNs       = "ns"
	UnitFraction = "fraction" // 0..1
	UnitCount    = "count"
	UnitRatio    = "ratio" // ×
	UnitBytes    = "bytes"
	UnitMHz      = "MHz"
	UnitCelsius  = "°C"
)

// Statements are the templates of the sentences a finding's headline and
// evidence say (result.Statement.Say), filled by the one renderer
// (report/prose). In a template, {name} is the figure of that name in its
// unit's format, {name|format} in a named format (dur, pct, pct1, abs1,
// side, x2, ms2, gib1, gib2, d, thousands, c0, plural:WORD ("3 words"),
// either:ONE:MANY, xids: every figure of that name); {ranks|ranktext},
// {ranks|hashave}, {ranks|list} are its ranks as "ranks 2-5", "have",
// "[2 3 4 5]"; {@word} is a quoted word; {rank0}, {rank1} the
// statement's ranks, {who0}, {who1} those ranks described with their
// coordinates and GPU, {ranks} all of them ("3, 5"), {stage0} its first
// stage, {axis} and {axes} its axes, {axiswords} its axis in words.
// A part in [brackets] is said only when every figure and word it names is
// there.
var Statements = map[string]string{
	// Legacy: a sentence a version-1 Result carried as text.
	SayText: "{@text}",

	SayBubble:       "pipeline bubble: GPUs wait {cost} per step ({share} of the step)",
	SayStageBubble:  "stage {stage0}: bubble {bubble} measured vs {ideal} ideal ({@schedule}, p={p|d}, m={m|d})",
	SayStageNoIdeal: "stage {stage0}: bubble {bubble} measured; no ideal: the trace carries no cue for the microbatches",
	SayBubbleSplit: "the bubble measures {bubble} per step: {wait} pipeline send/recv waiting for the neighbour, {idle} idle or copying, " +
		"and {transfer} transferring, counted under exposed PP communication",
	SayBubbleExcess: "{excess} per step of it is above the ideal: stages waiting for a slower stage or rank, " +
		"which the imbalance and slow-rank findings would also recover",

	SayCommOverlap:   "{axis} kernels run {comm} per step on average; {overlap} of it overlaps compute",
	SayExposedPP:     "exposed PP communication: send/recv transfer {cost} per step with no compute or other communication to hide it",
	SayPPSplit:       "of the {exposed} exposed: {wait} waiting for the neighbour (counted in the pipeline bubble), {transfer} transferring",
	SayExposed:       "exposed {axiswords} communication: {exposed} per step not hidden under compute[, {cost} of it not waiting for a slow or late rank]",
	SayExposedSplit:  "of the {exposed} exposed: {wait} waiting for the last member to arrive, {transfer} transferring",
	SaySlowClaim:     "{wait} of that wait (mean over ranks) is for slow rank {ranks}, counted under the slow-rank finding",
	SayLateClaim:     "{wait} of that wait (mean over ranks) is for late rank {ranks}, which arrives last without computing more, counted under the late-rank finding",
	SayCountedHere:   "that wait is counted here, not under exposed {axes} communication",
	SayImbalance:     "stage imbalance: stage {stage0} computes {compute} per step, {imbalance} the mean stage",
	SayStageCompute:  "stage {stage0} compute {compute}[ (forward {forward}, backward {backward})]",
	SayImbalanceGain: "if every stage took the mean, the step would be about {gain} shorter",

	SaySlowRank:     "slow rank: {who0} computes {excess} more than its peers",
	SaySlowCompute:  "{who0}: compute {excess} slower than its {peers|d} peers ({compute} per step)",
	SaySlowPeerWait: "its peers wait {wait} per step in {@group} for it",

	SayProblem:      "{@problem}",
	SayTPCost:       "its cost is the exposed TP communication, {exposed} per step, counted under that finding",
	SayWorldSize:    "world size {world|d} ≠ TP{tp|d}·PP{pp|d}·DP{dp|d}·CP{cp|d}·EP{ep|d} = {product|d}",
	SayOrder:        "{misplaced|d} ranks sit in their parallel groups where order {@order} does not put them",
	SayGroupLayout:  "{axis} group {ranks|list} ({@comm}) is not a {axis} group of the layout TP{tp|d}·PP{pp|d}·DP{dp|d}·CP{cp|d} order {@order}",
	SayTPHosts:      "TP group {ranks|list}[ ({@comm})] spans hosts {@hosts}: its all-reduces cross the inter-node network",
	SayIdle:         "idle GPU: no kernel runs {idle} per step ({share} of the step), and no pipeline explains it",
	SayIdleRank:     "rank {rank0}: idle {idle} of a {step} step, compute {compute}",
	SayLateRank:     "late rank: {who0} arrives last at its {axes} collectives and holds its peers back {cost} per step",
	SayArrivesLast:  "it arrives last at {last|d} of the {instances|d} {axis} collectives of its groups ({@ops}), a median {lateness} after the second latest member",
	SayPeersWait:    "its peers wait for it {caused_mean} per step (mean over ranks; {caused} summed over them): {caused_share} of their exposed wait in these collectives[; the other {rest} is their wait until the second latest member arrives]",
	SayLaunchesLate: "its GPU is idle a median {gap} right before those kernels start: its host launches them late",
	SayQueued:       "its GPU is idle only a median {gap} right before those kernels start: earlier work queued on its GPU delays them",
	SayComputeAlone: "its compute is {compute} per step; no peer does the same work to compare",
	SayComputeVs:    "its compute, {compute} per step, is {diff|abs1} {diff|side} its {peers|d} peers' median ({peer}): it does not explain the lateness",
	SayPair: "ranks {rank1} and {rank0} differ by {diff}: rank {rank0} computes {compute} per step vs {peer} " +
		"and arrives last at their collectives",
	SayPairFew:      "only 2 ranks do this work (stage {stage0}): too few to name a slow rank by a robust score",
	SayPairBlame:    "{who0} holds {who1} back {blame} per step in collectives ({reverse} the other way)",
	SayThrottled:    "GPU throttled: {who0}: {@what}",
	SayGPU:          "GPU {@gpu}: SM clock {sm_clock|thousands} MHz[ vs {peer_clock|thousands} MHz on its peers][, {temp|c0} °C][; {@reasons}][{xid|xids}]",
	SayThrottleLost: "its lost time is counted under the slow-rank finding",
	SayMemoryPeak:   "stage {stage0} holds {held|d} microbatches' activations at its peak: {peak|gib1} GiB, {ratio} the largest other stage's",
	SayStagePeak:    "stage {stage0}: peak {peak|gib2} GiB allocated",
	SayMissing:      "missing ranks: {ranks|ranktext} {ranks|hashave} no trace among the inputs ({read|d} read)",
	SayMissingOf:    "missing ranks: {ranks|ranktext} {ranks|hashave} no trace among the inputs ({declared|d} declared, {read|d} read)",
	SayDeclared:     "{@by} = {size|d} in {traces|plural:trace}",
	SayListed:       "communicator {@comm} lists {ranks|ranktext}",
	SayMoreListed:   "{more|d} more {more|either:communicator lists:communicators list} missing ranks",
	SayDescribed:    "rank {rank0} is described by {@from}, which has no timeline of it",
	SayReadOnly:     "every figure describes the {read|plural:rank} read only; a missing rank may be the slow one",
	SayReplay:       "replay ({@scenario}): the step would take {step|ms2} ms, {gain|ms2} ms ({gain_share|pct1}) shorter",
	SayReplayCost:   "the cost is the replay's; the estimate from the figures alone was {estimate|ms2} ms",
}

// Statement keys (result.Statement.Say).
const (
	SayText          = "text"
	SayBubble        = "bubble"
	SayStageBubble   = "stage_bubble"
	SayStageNoIdeal  = "stage_bubble_no_ideal"
	SayBubbleSplit   = "bubble_split"
	SayBubbleExcess  = "bubble_excess"
	SayCommOverlap   = "comm_overlap"
	SayExposedPP     = "exposed_pp"
	SayPPSplit       = "pp_split"
	SayExposed       = "exposed"
	SayExposedSplit  = "exposed_split"
	SaySlowClaim     = "slow_claim"
	SayLateClaim     = "late_claim"
	SayCountedHere   = "counted_here"
	SayImbalance     = "imbalance"
	SayStageCompute  = "stage_compute"
	SayImbalanceGain = "imbalance_gain"
	SaySlowRank      = "slow_rank"
	SaySlowCompute   = "slow_compute"
	SaySlowPeerWait  = "slow_peer_wait"
	SayProblem       = "problem"
	SayTPCost        = "tp_cost"
	SayWorldSize     = "world_size_mismatch"
	SayOrder         = "order_mismatch"
	SayGroupLayout   = "group_mismatch"
	SayTPHosts       = "tp_across_hosts"
	SayIdle          = "idle"
	SayIdleRank      = "idle_rank"
	SayLateRank      = "late_rank"
	SayArrivesLast   = "arrives_last"
	SayPeersWait     = "peers_wait"
	SayLaunchesLate  = "launches_late"
	SayQueued        = "queued"
	SayComputeAlone  = "compute_alone"
	SayComputeVs     = "compute_vs_peers"
	SayPair          = "rank_pair"
	SayPairFew       = "pair_few"
	SayPairBlame     = "pair_blame"
	SayThrottled     = "throttled"
	SayGPU           = "gpu"
	SayThrottleLost  = "throttle_lost"
	SayMemoryPeak    = "memory_peak"
	SayStagePeak     = "stage_peak"
	SayMissing       = "missing"
	SayMissingOf     = "missing_of"
	SayDeclared      = "declared"
	SayListed        = "listed"
	SayMoreListed    = "more_listed"
	SayDescribed     = "described"
	SayReadOnly      = "read_only"
	SayReplay        = "replay"
	SayReplayCost    = "replay_cost"
)
