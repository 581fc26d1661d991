// Package clock matches collective instances across ranks and estimates
// each rank's clock offset from the fact that a collective ends (almost)
// together on all its members.
package clock

import "github.com/tpptrace/tpptrace/ingest/model"

// Instance is one collective instance: the kernels of its members.
type Instance struct {
	Comm   int32 // index into Trace.Comms
	Seq    int64 // sequence number (given, or the position within the communicator)
	Op     model.Op
	Events []int32 // event index of each member's kernel, ordered by member rank
}

// Match groups the communication kernels of t into instances, by
// (communicator, sequence number) when known, else by order within the
// communicator on each member. (Being built.)
func Match(t *model.Trace) []Instance { return nil }

// Offsets are the estimated clock offsets.
type Offsets struct {
	ByRank     map[int32]int64 // rank's clock − rank 0's clock (ns)
	ResidualNs int64           // median |residual| of matched ends after alignment
	Matched    int             // instances used
	Method     string          // "collective-end" or "none"
}

// Of returns rank r's offset (0 when unknown).
func (o Offsets) Of(r int32) int64 { return o.ByRank[r] }

// Align estimates offsets from instances. (Being built.)
func Align(t *model.Trace, inst []Instance) Offsets {
	return Offsets{ByRank: map[int32]int64{}, Method: "none"}
}
