package diagnose

// Arrival is how one rank arrived at the collectives of one axis's groups
// (instances of two or more members, not point-to-point) over the analysed
// steps. The analysis fills it; LateRanks judges it.
type Arrival struct {
	Rank      int32
	Axis      string // axis key: "TP", "DP", ..., "other"
	Members   int    // members summed over its instances (Members / Instances: mean group size)
	Instances int    // instances it was a member of
	Last      int    // instances it arrived last to
	// Lateness and Gaps are, for each instance it arrived last to, the
	// latest − second latest start, and how long its GPU was idle right
	// before its kernel started (-1 when nothing ran before it).
	Lateness []int64
	Gaps     []int64
	Ops      map[string]int // "AXIS op" → instances it arrived last to
	// CausedNs is, per step, the exposed wait of the other members of the
	// instances it arrived last to within its lateness (the part they
	// would not have waited had it arrived with the second latest), summed
	// over members; PeerWaitNs the other members' exposed wait in every
	// instance it was a member of, summed over members, per step.
	CausedNs   int64
	PeerWaitNs int64
	BlameNs    int64 // per step: its lateness summed over the instances it arrived last to
}
