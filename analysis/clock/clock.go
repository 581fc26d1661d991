// Package clock matches collective instances across ranks and estimates
// each rank's clock offset from the fact that a collective ends (almost)
// together on all its members.
//
// Match groups communication kernels into instances; Align turns the end
// differences of those instances into one offset per rank (rank's clock −
// rank 0's clock) by a robust least-squares fit over the graph of ranks
// that share communicators. See docs/clock.md.
package clock

import "github.com/tpptrace/tpptrace/model"

// Instance is one collective instance: the kernels of its members.
type Instance struct {
	Comm   int32 // index into Trace.Comms
	Seq    int64 // sequence number (given, or the position within the communicator)
	Op     model.Op
	Events []int32 // event index of each member's kernel, ordered by member rank
}

// Match groups the communication kernels of t into instances, by
// (communicator, sequence number) when known, else by end order within the
// communicator (per op, or per p2p pair) on each member. Instances with a missing or doubled member
// are dropped; MatchStats counts them.
func Match(t *model.Trace) []Instance {
	inst, _ := MatchStats(t)
	return inst
}

// Offsets are the estimated clock offsets.
type Offsets struct {
	ByRank     map[int32]int64 // rank's clock − rank 0's clock (ns); Align's, not to be changed after
	ResidualNs int64           // median |residual| of matched ends after alignment
	Matched    int             // instances used
	Method     string          // "collective-end" or "none"
	Unaligned  []int32         // ranks joined to rank 0 by no chain of matched pairs: offset unknown, left at 0
	Warnings   []string        // ranks left unaligned, and why

	dense []int64 // ByRank by rank for ranks 0..len-1 (0 where absent), set by Align: Of without a map lookup
}

// Of returns rank r's offset (0 when unknown).
func (o Offsets) Of(r int32) int64 {
	if uint(r) < uint(len(o.dense)) {
		return o.dense[r]
	}
	return o.ByRank[r]
}

// densify sets o.dense from o.ByRank when the ranks are not too sparse for
// a slice (at most 4 slots per rank, plus 1,024).
func (o *Offsets) densify() {
	hi := int32(-1)
	for r := range o.ByRank {
		hi = max(hi, r)
	}
	if hi < 0 || int(hi) >= 4*len(o.ByRank)+1024 {
		return
	}
	o.dense = make([]int64, hi+1)
	for r, x := range o.ByRank {
		if r >= 0 {
			o.dense[r] = x
		}
	}
}
