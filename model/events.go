package model

import (
	"slices"
)

// Events holds events column-wise; row i of every slice is one event.
type Events struct {
	Rank   []int32 // global rank
	Stream []int32 // index into Trace.Streams, -1 when none
	Kind   []Kind
	Name   []int32 // id in Trace.Names
	Start  []int64 // ns, on the rank's clock
	Dur    []int64 // ns, >= 0
	Corr   []int64 // launch correlation id (CUDA correlation / CUPTI correlationId), -1 when none
	Iter   []int32 // iteration (ProfilerStep#N), -1 when unknown
	Micro  []int32 // microbatch, -1 when unknown
	Coll   []int32 // index into Trace.Colls, -1 when the event carries no collective

	launch []int32 // the kernel ↔ launch link (Link, Launches), nil until linked
}

// Event is one row of Events, for building and reading single events.
type Event struct {
	Rank   int32
	Stream int32
	Kind   Kind
	Name   int32
	Start  int64
	Dur    int64
	Corr   int64
	Iter   int32
	Micro  int32
	Coll   int32
}

// NewEvent returns an event with every optional field set to -1.
func NewEvent(rank int32, kind Kind, name int32, start, dur int64) Event {
	return Event{Rank: rank, Stream: -1, Kind: kind, Name: name, Start: start, Dur: dur, Corr: -1, Iter: -1, Micro: -1, Coll: -1}
}

// End is Start+Dur.
func (e Event) End() int64 { return e.Start + e.Dur }

// Len is the number of events.
func (ev *Events) Len() int { return len(ev.Start) }

// Append adds one event.
func (ev *Events) Append(e Event) {
	ev.Rank = append(ev.Rank, e.Rank)
	ev.Stream = append(ev.Stream, e.Stream)
	ev.Kind = append(ev.Kind, e.Kind)
	ev.Name = append(ev.Name, e.Name)
	ev.Start = append(ev.Start, e.Start)
	ev.Dur = append(ev.Dur, e.Dur)
	ev.Corr = append(ev.Corr, e.Corr)
	ev.Iter = append(ev.Iter, e.Iter)
	ev.Micro = append(ev.Micro, e.Micro)
	ev.Coll = append(ev.Coll, e.Coll)
}

// At returns row i.
func (ev *Events) At(i int) Event {
	return Event{ev.Rank[i], ev.Stream[i], ev.Kind[i], ev.Name[i], ev.Start[i], ev.Dur[i], ev.Corr[i], ev.Iter[i], ev.Micro[i], ev.Coll[i]}
}

// Set overwrites row i.
func (ev *Events) Set(i int, e Event) {
	ev.Rank[i], ev.Stream[i], ev.Kind[i], ev.Name[i] = e.Rank, e.Stream, e.Kind, e.Name
	ev.Start[i], ev.Dur[i], ev.Corr[i] = e.Start, e.Dur, e.Corr
	ev.Iter[i], ev.Micro[i], ev.Coll[i] = e.Iter, e.Micro, e.Coll
	ev.launch = nil
}

// Grow makes room for n more events.
func (ev *Events) Grow(n int) {
	ev.Rank = slices.Grow(ev.Rank, n)
	ev.Stream = slices.Grow(ev.Stream, n)
	ev.Kind = slices.Grow(ev.Kind, n)
	ev.Name = slices.Grow(ev.Name, n)
	ev.Start = slices.Grow(ev.Start, n)
	ev.Dur = slices.Grow(ev.Dur, n)
	ev.Corr = slices.Grow(ev.Corr, n)
	ev.Iter = slices.Grow(ev.Iter, n)
	ev.Micro = slices.Grow(ev.Micro, n)
	ev.Coll = slices.Grow(ev.Coll, n)
}

// Sort orders events by rank, then start, then longer first (so an enclosing
// range precedes what it encloses), then kind. It is stable. Rows already
// in that order are left as they are.
func (ev *Events) Sort() {
	if ev.inOrder() {
		return
	}
	keys := ev.sortKeys()
	slices.SortFunc(keys, compareSortKeys)
	ev.permute(keyRows(keys))
}

// SortOrder is the permutation Sort applies, without applying it: row i of
// the sorted events is row SortOrder()[i] of these.
func (ev *Events) SortOrder() []int32 {
	keys := ev.sortKeys()
	slices.SortFunc(keys, compareSortKeys)
	return keyRows(keys)
}

// sortKey is what Sort orders one row by, and the row: side by side in one
// slice, not read column by column through a permutation at every compare.
type sortKey struct {
	start, dur int64
	rank, row  int32
	kind       Kind
}

func (ev *Events) sortKeys() []sortKey {
	keys := make([]sortKey, ev.Len())
	for i := range keys {
		keys[i] = ev.keyAt(i)
	}
	return keys
}

// keyAt is row i's sort key.
func (ev *Events) keyAt(i int) sortKey {
	return sortKey{ev.Start[i], ev.Dur[i], ev.Rank[i], int32(i), ev.Kind[i]}
}

// inOrder tells whether the rows are in Sort's order already, read from
// the columns: a reader's rows mostly are (a Kineto file's are written in
// time order), and then Sort builds no keys (a 24-byte key a row, new
// memory in every file's worker). No rows is not in order: Sort gives
// them empty columns, not nil ones, as it always has.
func (ev *Events) inOrder() bool {
	n := ev.Len()
	if n == 0 {
		return false
	}
	r, s, d, k := ev.Rank[:n], ev.Start[:n], ev.Dur[:n], ev.Kind[:n]
	for i := 1; i < n; i++ {
		switch { // compareSortKeys of rows i-1 and i, read in place
		case r[i] != r[i-1]:
			if r[i] < r[i-1] {
				return false
			}
		case s[i] != s[i-1]:
			if s[i] < s[i-1] {
				return false
			}
		case d[i] != d[i-1]:
			if d[i] > d[i-1] {
				return false
			}
		case k[i] < k[i-1]:
			return false
		}
	}
	return true
}

// compareSortKeys is Sort's order, then the row: a total order, so an
// unstable sort of the keys gives the stable order of the rows.
// It stops at the first key that differs (cmp.Or would compare them all).
func compareSortKeys(a, b sortKey) int {
	switch {
	case a.rank != b.rank:
		return sign(a.rank < b.rank)
	case a.start != b.start:
		return sign(a.start < b.start)
	case a.dur != b.dur:
		return sign(a.dur > b.dur)
	case a.kind != b.kind:
		return sign(a.kind < b.kind)
	case a.row != b.row:
		return sign(a.row < b.row)
	}
	return 0
}

// sign is −1 for less, else 1.
func sign(less bool) int {
	if less {
		return -1
	}
	return 1
}

func keyRows(keys []sortKey) []int32 {
	rows := make([]int32, len(keys))
	for i, k := range keys {
		rows[i] = k.row
	}
	return rows
}

func (ev *Events) permute(perm []int32) {
	ev.Rank = gather(ev.Rank, perm)
	ev.Stream = gather(ev.Stream, perm)
	ev.Kind = gather(ev.Kind, perm)
	ev.Name = gather(ev.Name, perm)
	ev.Start = gather(ev.Start, perm)
	ev.Dur = gather(ev.Dur, perm)
	ev.Corr = gather(ev.Corr, perm)
	ev.Iter = gather(ev.Iter, perm)
	ev.Micro = gather(ev.Micro, perm)
	ev.Coll = gather(ev.Coll, perm)
	ev.launch = nil
}

func gather[T any](s []T, perm []int32) []T {
	out := make([]T, len(s))
	for i, p := range perm {
		out[i] = s[p]
	}
	return out
}

// RankRange returns the half-open row range [lo, hi) of rank r's events.
// Events must be sorted.
func (ev *Events) RankRange(r int32) (lo, hi int) {
	lo, _ = slices.BinarySearch(ev.Rank, r)
	hi, _ = slices.BinarySearch(ev.Rank, r+1)
	return lo, hi
}

// Collectives holds collective attributes column-wise; row i describes the
// collective of every event whose Coll is i.
type Collectives struct {
	Op        []Op
	Bytes     []int64 // message size in bytes (input side), -1 when unknown
	DType     []int32 // id in Trace.Names ("bf16", "Float"), 0 when unknown
	Comm      []int32 // index into Trace.Comms, -1 when unknown
	Seq       []int64 // sequence number within the communicator, -1 when unknown
	Peer      []int32 // global rank of the p2p peer, -1 when none or unknown
	GroupSize []int32 // communicator size as recorded, -1 when unknown
}

// Collective is one row of Collectives.
type Collective struct {
	Op        Op
	Bytes     int64
	DType     int32
	Comm      int32
	Seq       int64
	Peer      int32
	GroupSize int32
}

// NewCollective returns a collective with every optional field unknown.
func NewCollective(op Op) Collective {
	return Collective{Op: op, Bytes: -1, Comm: -1, Seq: -1, Peer: -1, GroupSize: -1}
}

// Len is the number of collective rows.
func (c *Collectives) Len() int { return len(c.Op) }

// Append adds a row and returns its index.
func (c *Collectives) Append(x Collective) int32 {
	c.Op = append(c.Op, x.Op)
	c.Bytes = append(c.Bytes, x.Bytes)
	c.DType = append(c.DType, x.DType)
	c.Comm = append(c.Comm, x.Comm)
	c.Seq = append(c.Seq, x.Seq)
	c.Peer = append(c.Peer, x.Peer)
	c.GroupSize = append(c.GroupSize, x.GroupSize)
	return int32(len(c.Op) - 1)
}

// At returns row i.
func (c *Collectives) At(i int) Collective {
	return Collective{c.Op[i], c.Bytes[i], c.DType[i], c.Comm[i], c.Seq[i], c.Peer[i], c.GroupSize[i]}
}
