package model

import (
	"errors"
	"fmt"
)

// maxDur is the longest event Validate accepts: a week. Longer durations are
// corrupt timestamps, not work.
const maxDur = int64(7 * 24 * 3600 * 1e9)

// Validate checks the trace's invariants and returns every violation found
// (joined with errors.Join), or nil. It checks that events are sorted by rank
// then start, durations are in [0, a week], every event's rank exists, stream
// and collective indices are in range and streams belong to the event's rank,
// name ids are in the table, every communicator member exists, and samples
// point at a sampled GPU; counters are sorted and name ranks and names
// that exist.
func (t *Trace) Validate() error {
	var errs []error
	add := func(format string, args ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	t.validateColumns(add)
	t.validateEvents(add)
	t.validateTables(add)
	t.validateCounters(add)
	return errors.Join(errs...)
}

func (t *Trace) validateColumns(add func(string, ...any)) {
	ev, n := &t.Events, t.Events.Len()
	lens := []int{len(ev.Rank), len(ev.Stream), len(ev.Kind), len(ev.Name), len(ev.Dur), len(ev.Corr), len(ev.Iter), len(ev.Micro), len(ev.Coll)}
	for _, l := range lens {
		if l != n {
			add("event columns have different lengths (%v, start %d)", lens, n)
			return
		}
	}
	c := &t.Colls
	for _, l := range []int{len(c.Bytes), len(c.DType), len(c.Comm), len(c.Seq), len(c.Peer), len(c.GroupSize)} {
		if l != c.Len() {
			add("collective columns have different lengths")
			return
		}
	}
}

func (t *Trace) validateEvents(add func(string, ...any)) {
	ev := &t.Events
	if len(ev.Rank) != ev.Len() || len(ev.Coll) != ev.Len() {
		return
	}
	known := false // whether the rank of the current run of events is in the rank table
	for i := 0; i < ev.Len(); i++ {
		if i == 0 || ev.Rank[i] != ev.Rank[i-1] {
			known = t.FindRank(ev.Rank[i]) >= 0 // once per run of one rank
		}
		t.validateEvent(i, known, add)
		if i > 0 && (ev.Rank[i] < ev.Rank[i-1] || ev.Rank[i] == ev.Rank[i-1] && ev.Start[i] < ev.Start[i-1]) {
			add("event %d is out of order (rank %d start %d after rank %d start %d)", i, ev.Rank[i], ev.Start[i], ev.Rank[i-1], ev.Start[i-1])
		}
	}
}

// validateEvent checks event i; known says whether its rank is in the rank
// table.
func (t *Trace) validateEvent(i int, known bool, add func(string, ...any)) {
	ev := &t.Events
	if d := ev.Dur[i]; d < 0 || d > maxDur {
		add("event %d (%s) has duration %d ns", i, t.Name(i), d)
	}
	if !known {
		add("event %d belongs to rank %d, which is not in the rank table", i, ev.Rank[i])
	}
	if s := ev.Stream[i]; s >= int32(len(t.Streams)) || s >= 0 && t.Streams[s].Rank != ev.Rank[i] {
		add("event %d has stream %d, which is out of range or belongs to another rank", i, s)
	}
	if c := ev.Coll[i]; c < -1 || c >= int32(t.Colls.Len()) {
		add("event %d has collective %d, out of range", i, c)
	}
	if n := ev.Name[i]; n < 0 || int(n) >= t.Names.Len() {
		add("event %d has name id %d, out of range", i, n)
	}
}

func (t *Trace) validateTables(add func(string, ...any)) {
	for _, c := range t.Comms {
		for _, m := range c.Members {
			if t.FindRank(m) < 0 {
				add("communicator %q lists rank %d, which is not in the rank table", c.ID, m)
			}
		}
	}
	for i, r := range t.Ranks {
		if i > 0 && t.Ranks[i-1].Rank >= r.Rank {
			add("rank table is not sorted or has duplicates at rank %d", r.Rank)
		}
	}
	for i := 0; i < t.Colls.Len(); i++ {
		if c := t.Colls.Comm[i]; c < -1 || c >= int32(len(t.Comms)) {
			add("collective %d has communicator %d, out of range", i, c)
		}
	}
	for i := range t.Samples.Len() {
		if g := t.Samples.GPU(i); g < 0 || int(g) >= len(t.SampleGPUs) {
			add("sample %d points at GPU %d, out of range", i, g)
		}
	}
}

func (t *Trace) validateCounters(add func(string, ...any)) {
	c := &t.Counters
	if len(c.Rank) != c.Len() || len(c.Name) != c.Len() || len(c.Value) != c.Len() {
		add("counter columns have different lengths")
		return
	}
	for i := 0; i < c.Len(); i++ {
		if t.FindRank(c.Rank[i]) < 0 {
			add("counter %d belongs to rank %d, which is not in the rank table", i, c.Rank[i])
		}
		if n := c.Name[i]; n < 0 || int(n) >= t.Names.Len() {
			add("counter %d has name id %d, out of range", i, n)
		}
		if i > 0 && !c.sorted(i) {
			add("counter %d is out of order (rank %d time %d)", i, c.Rank[i], c.Time[i])
		}
	}
}
