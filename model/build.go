package model

import (
	"fmt"
	"slices"
)

// FindRank returns the index in t.Ranks of global rank r, or -1.
func (t *Trace) FindRank(r int32) int {
	i, ok := slices.BinarySearchFunc(t.Ranks, r, func(x Rank, r int32) int { return int(x.Rank) - int(r) })
	if !ok {
		return -1
	}
	return i
}

// AddRank inserts or replaces rank r.Rank, keeping Ranks sorted.
func (t *Trace) AddRank(r Rank) {
	i, ok := slices.BinarySearchFunc(t.Ranks, r.Rank, func(x Rank, v int32) int { return int(x.Rank) - int(v) })
	if ok {
		t.Ranks[i] = r
		return
	}
	t.Ranks = slices.Insert(t.Ranks, i, r)
}

// AddStream returns the index of the stream with the same rank, GPU flag and
// ID, adding s if there is none.
func (t *Trace) AddStream(s Stream) int32 {
	for i, x := range t.Streams {
		if x.Rank == s.Rank && x.GPU == s.GPU && x.ID == s.ID {
			return int32(i)
		}
	}
	t.Streams = append(t.Streams, s)
	return int32(len(t.Streams) - 1)
}

// AddComm returns the index of the communicator with c.ID, adding c if there
// is none. For an existing one, members are unioned and empty name,
// description and unknown axis are filled from c.
func (t *Trace) AddComm(c Communicator) int32 {
	for i := range t.Comms {
		x := &t.Comms[i]
		if x.ID != c.ID {
			continue
		}
		if !containsAllSorted(x.Members, c.Members) { // a merge adds each file's copy of a group
			x.Members = unionSorted(x.Members, c.Members)
		}
		x.Name = cmpOr(x.Name, c.Name)
		x.Desc = cmpOr(x.Desc, c.Desc)
		if x.Axis == AxisUnknown {
			x.Axis, x.AxisBy = c.Axis, c.AxisBy
		}
		return int32(i)
	}
	c.Members = unionSorted(nil, c.Members)
	t.Comms = append(t.Comms, c)
	return int32(len(t.Comms) - 1)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// containsAllSorted reports whether the sorted list a holds every rank of b.
func containsAllSorted(a, b []int32) bool {
	for _, r := range b {
		if _, ok := slices.BinarySearch(a, r); !ok {
			return false
		}
	}
	return true
}

func unionSorted(a, b []int32) []int32 {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// AddEvent appends an event, interning name.
func (t *Trace) AddEvent(e Event) int { t.Events.Append(e); return t.Events.Len() - 1 }

// Name returns the name of event i.
func (t *Trace) Name(i int) string { return t.Names.Get(t.Events.Name[i]) }

// Skip records a skipped item.
func (t *Trace) Skip(source string, offset int64, unit, format string, args ...any) {
	t.Skipped = append(t.Skipped, Skip{Source: source, Offset: offset, Unit: unit, Reason: fmt.Sprintf(format, args...), Count: 1})
}

// CountByKind returns the number of events of each kind.
func (t *Trace) CountByKind() map[Kind]int {
	m := map[Kind]int{}
	for _, k := range t.Events.Kind {
		m[k]++
	}
	return m
}
