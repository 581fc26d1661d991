package hang

import "github.com/tpptrace/tpptrace/analysis/result"

// Report, Finding and NoDump are the Result's hang types: they live in
// analysis/result so that report/hang renders them without this package.
type (
	Report  = result.Hang
	Finding = result.HangFinding
	NoDump  = result.HangNoDump
)

// Finding kinds: how the ranks of a process group disagree.
const (
	KindMissing  = result.HangMissing  // ranks never enqueued a collective their peers wait in
	KindMismatch = result.HangMismatch // ranks enqueued the same collective with different op, size or dtype
	KindStuck    = result.HangStuck    // ranks have not completed a collective their peers completed
)
