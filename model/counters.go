package model

import (
	"cmp"
	"slices"
)

// Counter names used by the readers. A counter is a value sampled at
// instants on one rank: after each change, the level it changed to.
const (
	// CounterMemAllocated is the bytes the caching allocator holds for
	// tensors on the rank's GPU (Kineto's [memory] "Total Allocated").
	CounterMemAllocated = "gpu_mem_allocated_bytes"
	// CounterMemReserved is the bytes the allocator reserved from the
	// driver on the rank's GPU (Kineto's "Total Reserved").
	CounterMemReserved = "gpu_mem_reserved_bytes"
)

// Counters holds counter samples column-wise; row i of every slice is one
// sample. Rows are sorted by rank, then name id, then time.
type Counters struct {
	Rank  []int32 // global rank
	Name  []int32 // id in Trace.Names of the counter name (CounterMemAllocated ...)
	Time  []int64 // ns, on the rank's clock
	Value []int64 // the counter's level from Time on
}

// Counter is one row of Counters.
type Counter struct {
	Rank  int32
	Name  int32
	Time  int64
	Value int64
}

// Len is the number of samples.
func (c *Counters) Len() int { return len(c.Time) }

// Append adds one sample.
func (c *Counters) Append(x Counter) {
	c.Rank = append(c.Rank, x.Rank)
	c.Name = append(c.Name, x.Name)
	c.Time = append(c.Time, x.Time)
	c.Value = append(c.Value, x.Value)
}

// At returns row i.
func (c *Counters) At(i int) Counter {
	return Counter{c.Rank[i], c.Name[i], c.Time[i], c.Value[i]}
}

// Sort orders samples by rank, name id, then time. It is stable.
func (c *Counters) Sort() {
	perm := make([]int32, c.Len())
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortStableFunc(perm, func(a, b int32) int {
		return cmp.Or(cmp.Compare(c.Rank[a], c.Rank[b]), cmp.Compare(c.Name[a], c.Name[b]), cmp.Compare(c.Time[a], c.Time[b]))
	})
	c.Rank, c.Name = gather(c.Rank, perm), gather(c.Name, perm)
	c.Time, c.Value = gather(c.Time, perm), gather(c.Value, perm)
}

// sorted reports whether row i is in order after row i-1.
func (c *Counters) sorted(i int) bool {
	return cmp.Or(cmp.Compare(c.Rank[i-1], c.Rank[i]), cmp.Compare(c.Name[i-1], c.Name[i]), cmp.Compare(c.Time[i-1], c.Time[i])) <= 0
}

// CounterPeak returns the largest value of the named counter on rank r
// within [from, to) plus the level in force at from (the last sample
// before it), and whether any sample applied. Counters must be sorted.
func (t *Trace) CounterPeak(r int32, name string, from, to int64) (int64, bool) {
	id, ok := t.Names.Lookup(name)
	if !ok {
		return 0, false
	}
	c := &t.Counters
	lo, _ := slices.BinarySearch(c.Rank, r)
	peak, found := int64(0), false
	for i := lo; i < c.Len() && c.Rank[i] == r; i++ {
		if c.Name[i] != id || c.Time[i] >= to {
			continue
		}
		if c.Time[i] < from && i+1 < c.Len() && c.Rank[i+1] == r && c.Name[i+1] == id && c.Time[i+1] <= from {
			continue
		}
		peak, found = max(peak, c.Value[i]), true
	}
	return peak, found
}
