package model

import "slices"

// DropFallback is what Merge keeps of p, a Fallback part with events, when
// other parts hold events of every rank p times (ranks, ascending): p
// without its events and those ranks' counters, no longer a Fallback, its
// skip records led by the one Merge writes for the events it drops, its
// other tables (names, streams, communicators, collectives, ...) as they
// are. Merging the result in p's place gives Merge's trace as long as
// every rank of ranks has events in a part of the merge that is not a
// Fallback; the caller checks that. For a trace that is not a Fallback or
// has no events, DropFallback returns t itself and no ranks.
func (t *Trace) DropFallback() (reduced *Trace, ranks []int32) {
	if !t.Fallback || t.Events.Len() == 0 {
		return t, nil
	}
	drop := map[int32]bool{}
	for _, r := range t.Events.Rank {
		if !drop[r] {
			drop[r] = true
			ranks = append(ranks, r)
		}
	}
	slices.Sort(ranks)
	out := *t
	out.Events, out.Fallback, out.merged = Events{}, false, mergeMark{}
	out.Skipped = nil
	out.skipDropped(t, drop)
	out.Skipped = append(out.Skipped, t.Skipped...)
	out.Counters = t.Counters.without(drop)
	return &out, ranks
}

// without returns a copy of c without the samples of the dropped ranks.
func (c *Counters) without(drop map[int32]bool) Counters {
	var out Counters
	for i := range c.Len() {
		if x := c.At(i); !drop[x.Rank] {
			out.Append(x)
		}
	}
	return out
}
