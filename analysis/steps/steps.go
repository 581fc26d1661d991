// Package steps finds the iterations (training steps) of each rank.
//
// A step window is, in order of preference, a range annotation matching the
// user's regular expression (NVTX ranges in nsys), a step-like range
// (ProfilerStep#N, train_step N, iteration N, step_N ...), the period of
// the once-per-step data-parallel synchronisation, or, with none of these,
// the whole trace. Only iterations that every rank
// has are analysed; Find labels Events.Iter of the events in them. See
// docs/steps.md and docs/semantics.md.
package steps

import (
	"regexp"
	"strings"

	"github.com/tpptrace/tpptrace/model"
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
	Method  string             // "profiler-step", "annotation", "regex", "period", "whole"
	From    string             // what found them, for the Result: "annotations:ProfilerStep", "annotations:train_step", "step-regex", "dp-sync-period", "world-sync-period", "whole-trace"
	Dropped []int32            // iterations seen but dropped as incomplete
}

// Find finds the steps: ranges matching re (when re is not nil and matches),
// step-like range names (StepLike: ProfilerStep#N, train_step N,
// iteration N, ...), or the period of the once-per-step DP sync, else the
// whole trace as one step. It drops iterations some rank lacks and a last
// annotated step that the capture cut short, and sets Events.Iter of every
// event inside an analysed window (-1 elsewhere). It never fails on a
// well-formed trace; the error is reserved for inputs it cannot read.
func Find(t *model.Trace, re *regexp.Regexp) (Steps, error) {
	return FindIn(t, t.Ranked(), re)
}

// FindIn is Find reading each rank's every event from src, one rank at a
// time, and from t only the communication kernels and the CPU range
// annotations (t may hold only those, with every table: docs/memory.md).
// It labels Events.Iter of t's events.
func FindIn(t *model.Trace, src model.RankSource, re *regexp.Regexp) (Steps, error) {
	v := &views{src: src}
	ranks := src.TimedRanks()
	found, method, from := detect(t, v, ranks, re)
	s := keepComplete(found, ranks)
	s.Method, s.From = method, from
	if method == "profiler-step" || method == "annotation" || method == "regex" {
		dropCutLast(v, &s)
	}
	if len(s.Iters) == 0 && method != "whole" {
		w := keepComplete(whole(v, ranks), ranks)
		w.Method, w.From, w.Dropped = "whole", "whole-trace", s.Dropped
		s = w
	}
	if v.err != nil {
		return Steps{}, v.err
	}
	assignIters(t, s)
	return s, nil
}

// detect returns every rank's candidate windows by the first method that
// finds any, the method and what found them.
func detect(t *model.Trace, v *views, ranks []int32, re *regexp.Regexp) (map[int32][]Window, string, string) {
	if re != nil {
		if w := annotated(t, re); len(w) > 0 {
			return w, "regex", "step-regex"
		}
	}
	if w, family := stepLike(t); len(w) > 0 {
		method := "annotation"
		if family == "ProfilerStep" {
			method = "profiler-step"
		}
		return w, method, "annotations:" + family
	}
	if w, axis := period(t, v, ranks); len(w) > 0 {
		return w, "period", strings.ToLower(axis.String()) + "-sync-period"
	}
	if w := kernelPeriod(v, ranks); len(w) > 0 {
		return w, "period", "kernel-period"
	}
	return whole(v, ranks), "whole", "whole-trace"
}

// whole gives each rank one window, iteration 0, spanning all its events.
func whole(v *views, ranks []int32) map[int32][]Window {
	ws := make([][]Window, len(ranks))
	v.each(ranks, nil, func(i int, t *model.Trace) {
		ev := &t.Events
		lo, hi := ev.RankRange(ranks[i])
		if hi <= lo {
			return // a read error (views.err)
		}
		w := Window{Iter: 0, Start: ev.Start[lo], End: ev.Start[lo]}
		for j := lo; j < hi; j++ {
			w.End = max(w.End, ev.Start[j]+ev.Dur[j])
		}
		ws[i] = []Window{w}
	})
	return byRankOf(ranks, ws)
}

// byRankOf is the ranks' windows as a map, ranks without any left out.
func byRankOf(ranks []int32, ws [][]Window) map[int32][]Window {
	out := map[int32][]Window{}
	for i, w := range ws {
		if len(w) > 0 {
			out[ranks[i]] = w
		}
	}
	return out
}
