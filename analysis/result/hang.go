package result

// Hang finding kinds: how the ranks of a process group disagree.
const (
	HangMissing  = "missing"  // ranks never enqueued a collective their peers wait in
	HangMismatch = "mismatch" // ranks enqueued the same collective with different op, size or dtype
	HangStuck    = "stuck"    // ranks have not completed a collective their peers completed
)

// Hang is what analysis/hang finds in a job's Flight Recorder dumps, the
// JSON form of `tpptrace hang --json`.
type Hang struct {
	Ranks    []int32       `json:"ranks"`    // ranks that have a dump
	Findings []HangFinding `json:"findings"` // every group's first disagreements
	Culprit  *HangFinding  `json:"culprit"`  // the disagreement the hang is attributed to, nil when none
	// Culprits are the independent root causes, strongest and earliest
	// first: every finding as strong as the culprit whose blamed ranks no
	// earlier one blames (two hung ranks in disjoint groups are two rows).
	// The first is Culprit.
	Culprits []HangFinding `json:"culprits,omitempty"`
	// NoDump are the ranks the process groups name that have no usable
	// dump: any of them may be the culprit.
	NoDump []HangNoDump `json:"no_usable_dump,omitempty"`
}

// HangFinding is the first collective of one process group where its
// ranks disagree, for one kind of disagreement.
type HangFinding struct {
	Group   string  `json:"pg"`
	Desc    string  `json:"desc"`
	Kind    string  `json:"kind"` // HangMissing, HangMismatch, HangStuck
	P2P     bool    `json:"p2p"`
	Seq     int64   `json:"seq"` // collective_seq_id (p2p_seq_id when P2P)
	Op      string  `json:"op"`
	Size    string  `json:"size"` // first input's shape, "4096x5120"
	DType   string  `json:"dtype"`
	Ranks   []int32 `json:"ranks"`   // missing, mismatching or stuck ranks
	Present []int32 `json:"present"` // ranks that hold the collective
	Detail  string  `json:"detail,omitempty"`
	Created int64   `json:"created_ns"` // earliest creation among present ranks, epoch ns; 0 unknown
}

// HangNoDump is a rank without a usable dump, and why.
type HangNoDump struct {
	Rank   int32  `json:"rank"`
	Path   string `json:"path,omitempty"` // the unusable dump, "" when none was given
	Reason string `json:"reason"`
}
