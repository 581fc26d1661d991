// Package events is the per-event view of a job that the TUI explores:
// every step's classified timeline, each rank's GPU events as sorted
// columns on the aligned clock, and every matched collective with its
// members' arrival, wait and transfer. It holds data only (standard
// library and the Result); tui/explore builds it from a trace and its
// analysis, and the TUI renders it without recomputing anything.
package events

import (
	"sort"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// Data is what the loader hands the TUI besides the Result.
type Data struct {
	Steps   []*result.Timeline // classified timeline per step, in Result.Iterations order
	Lanes   []Lane             // one per rank, ascending rank
	Names   []string           // Lane.Name indexes this
	Streams []string           // Lane.Stream indexes this
	Colls   []Coll             // Lane.Coll indexes this
}

// Lane is one rank's GPU events, sorted by start, on the aligned clock.
type Lane struct {
	Rank, Stage int
	Start, Dur  []int64
	Name        []int32
	Stream      []int32 // -1 when none
	Kind        []Kind  // what each event is
	Iter, Micro []int32 // -1 when unknown
	Coll        []int32 // index into Data.Colls, -1 for no matched collective
	MaxDur      int64   // longest event: how far back a query for an instant looks
}

// Kind is what an event is: a compute kernel, a communication kernel, a
// copy or a memset.
type Kind uint8

// Event kinds.
const (
	Compute Kind = iota
	Comm
	Memcpy
	Memset
)

var kindNames = [...]string{"compute", "comm", "memcpy", "memset"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// KindOf is the Kind named s ("compute" for names it does not know).
func KindOf(s string) Kind {
	for i, n := range kindNames {
		if n == s {
			return Kind(i)
		}
	}
	return Compute
}

// Coll is one matched collective instance.
type Coll struct {
	Comm    string // communicator id
	Desc    string // process-group description (DATA_PARALLEL_GROUP), "" when unknown
	Axis    string // "TP", "PP", "DP", ...
	Op      string // "all_reduce", "send", ...
	Bytes   int64  // -1 when unknown
	Members []Member
}

// Member is one member's kernel of a collective instance.
type Member struct {
	Rank       int
	Event      int   // index into the member's lane
	ArrivalNs  int64 // aligned start of its kernel
	WaitNs     int64 // until the last member arrived
	TransferNs int64 // from then to its own end
}

// Len is the number of events of the lane.
func (l *Lane) Len() int { return len(l.Start) }

// Window returns the index range [lo, hi) of the events that may overlap
// [from, to): starts in [from − MaxDur, to). It walks nothing outside it.
func (l *Lane) Window(from, to int64) (int, int) {
	lo := sort.Search(len(l.Start), func(i int) bool { return l.Start[i] >= from-l.MaxDur })
	hi := sort.Search(len(l.Start), func(i int) bool { return l.Start[i] >= to })
	return lo, max(lo, hi)
}

// Lane returns rank's lane, or nil.
func (d *Data) Lane(rank int) *Lane {
	i := sort.Search(len(d.Lanes), func(i int) bool { return d.Lanes[i].Rank >= rank })
	if i < len(d.Lanes) && d.Lanes[i].Rank == rank {
		return &d.Lanes[i]
	}
	return nil
}

// Add appends an event to the lane (callers add in start order).
func (l *Lane) Add(start, dur int64, name, stream int32, kind Kind, iter, micro, coll int32) {
	l.Start, l.Dur, l.Name, l.Stream = append(l.Start, start), append(l.Dur, dur), append(l.Name, name), append(l.Stream, stream)
	l.Kind, l.Iter, l.Micro, l.Coll = append(l.Kind, kind), append(l.Iter, iter), append(l.Micro, micro), append(l.Coll, coll)
	l.MaxDur = max(l.MaxDur, dur)
}
