// Package steps finds the iterations (training steps) of each rank.
//
// A step window is, in order of preference, a range annotation matching the
// user's regular expression (NVTX ranges in nsys), a Kineto ProfilerStep#N
// annotation, the period of the once-per-step data-parallel synchronisation,
// or, with none of these, the whole trace. Only iterations that every rank
// has are analysed; Find labels Events.Iter of the events in them. See
// docs/steps.md and docs/semantics.md.
package steps

import (
	"regexp"

	"github.com/tpptrace/tpptrace/ingest/model"
)

// Window is one rank's step: [Start, End) on the rank's own clock.
type Window struct {
	Iter       int32
	Start, End int64
}

// Steps are the analysed iterations.
type Steps struct {
	Iters   []int32            // analysed iteration numbers, complete on every rank, ascending
	ByRank  map[int32][]Window // per rank, one window per entry of Iters, same order
	Method  string             // "profiler-step", "regex", "period", "whole"
	Dropped []int32            // iterations seen but dropped as incomplete
}

// profilerStep matches Kineto's step annotation; group 1 is the step number.
var profilerStep = regexp.MustCompile(`^ProfilerStep#(\d+)$`)

// Find finds the steps: ranges matching re (when re is not nil and matches),
// ProfilerStep#N annotations, or the period of the once-per-step DP sync,
// else the whole trace as one step. It drops iterations some rank lacks and
// a last annotated step that the capture cut short, and sets Events.Iter of
// every event inside an analysed window (-1 elsewhere). It never fails on a
// well-formed trace; the error is reserved for inputs it cannot read.
func Find(t *model.Trace, re *regexp.Regexp) (Steps, error) {
	ranks := activeRanks(t)
	found, method := detect(t, re)
	s := keepComplete(found, ranks)
	s.Method = method
	if method == "profiler-step" || method == "regex" {
		dropCutLast(t, &s)
	}
	if len(s.Iters) == 0 && method != "whole" {
		w := keepComplete(whole(t, ranks), ranks)
		w.Method, w.Dropped = "whole", s.Dropped
		s = w
	}
	assignIters(t, s)
	return s, nil
}

// detect returns every rank's candidate windows by the first method that
// finds any.
func detect(t *model.Trace, re *regexp.Regexp) (map[int32][]Window, string) {
	if re != nil {
		if w := annotated(t, re); len(w) > 0 {
			return w, "regex"
		}
	}
	if w := annotated(t, profilerStep); len(w) > 0 {
		return w, "profiler-step"
	}
	if w := period(t); len(w) > 0 {
		return w, "period"
	}
	return whole(t, activeRanks(t)), "whole"
}

// activeRanks lists the ranks that have events, ascending.
func activeRanks(t *model.Trace) []int32 {
	var out []int32
	for _, r := range t.Ranks {
		if lo, hi := t.Events.RankRange(r.Rank); hi > lo {
			out = append(out, r.Rank)
		}
	}
	return out
}

// whole gives each rank one window, iteration 0, spanning all its events.
func whole(t *model.Trace, ranks []int32) map[int32][]Window {
	out := map[int32][]Window{}
	ev := &t.Events
	for _, r := range ranks {
		lo, hi := ev.RankRange(r)
		w := Window{Iter: 0, Start: ev.Start[lo], End: ev.Start[lo]}
		for i := lo; i < hi; i++ {
			w.End = max(w.End, ev.Start[i]+ev.Dur[i])
		}
		out[r] = []Window{w}
	}
	return out
}
