package model

// Rows returns rows [lo, hi) as Events of their own, sharing the columns
// (no copy; each column's capacity ends at hi, so appending to the view
// never writes over the rows after it). Pass whole ranks (RankRange): the
// launch column, when set, is rebased to the view's rows, and a launch
// outside [lo, hi) becomes -1.
func (ev *Events) Rows(lo, hi int) Events {
	v := Events{Rank: ev.Rank[lo:hi:hi], Stream: ev.Stream[lo:hi:hi], Kind: ev.Kind[lo:hi:hi], Name: ev.Name[lo:hi:hi],
		Start: ev.Start[lo:hi:hi], Dur: ev.Dur[lo:hi:hi], Corr: ev.Corr[lo:hi:hi], Iter: ev.Iter[lo:hi:hi],
		Micro: ev.Micro[lo:hi:hi], Coll: ev.Coll[lo:hi:hi]}
	if ev.Linked() {
		v.launch = make([]int32, hi-lo)
		for i, l := range ev.launch[lo:hi] {
			v.launch[i] = -1
			if int(l) >= lo && int(l) < hi {
				v.launch[i] = l - int32(lo)
			}
		}
	}
	return v
}

// RankView returns a trace whose events are rank r's rows of t (Rows)
// and whose tables (ranks, streams, communicators, collectives, names,
// counters, samples) are t's, shared: for the steps that read one rank's
// events at a time (docs/memory.md). Treat it as read-only.
func (t *Trace) RankView(r int32) *Trace {
	v := *t
	lo, hi := t.Events.RankRange(r)
	v.Events = t.Events.Rows(lo, hi)
	v.merged = mergeMark{}
	return &v
}

// RankSource hands out one rank's events at a time, for analyses that hold
// at most a few ranks' events (docs/memory.md): the in-memory trace
// (Trace.Ranked), or a dataset read rank by rank.
// Its methods may be called from several goroutines at once: the analysis
// reads a rank on each core.
type RankSource interface {
	// TimedRanks lists the ranks that have events, ascending.
	TimedRanks() []int32
	// RankEvents returns the rank's events as a trace of their own
	// (RankView), with the tables of the trace the cross-rank steps read.
	RankEvents(rank int32) (*Trace, error)
}

// Ranked is t as a RankSource: its ranks' views (RankView), no copy.
func (t *Trace) Ranked() RankSource { return traceSource{t} }

type traceSource struct{ t *Trace }

func (s traceSource) TimedRanks() []int32 {
	var out []int32
	for _, r := range s.t.Ranks {
		if lo, hi := s.t.Events.RankRange(r.Rank); hi > lo {
			out = append(out, r.Rank)
		}
	}
	return out
}

func (s traceSource) RankEvents(rank int32) (*Trace, error) { return s.t.RankView(rank), nil }

// CrossRank reports whether row i is one that the cross-rank steps of an
// analysis read (docs/memory.md): a communication kernel, an event with a
// collective, or a CPU range annotation. A trace of these rows alone, with
// every table, is what an analysis bounded by the largest rank holds of
// every rank.
func (ev *Events) CrossRank(i int) bool {
	k := ev.Kind[i]
	return k == KindComm || k == KindAnnotation || ev.Coll[i] >= 0
}
