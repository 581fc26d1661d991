package analysis

import (
	"fmt"
	"runtime"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/clock"
	"github.com/tpptrace/tpptrace/analysis/layout"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/analysis/steps"
)

// classify runs first: it names the ranks the inputs declare but hold no
// timeline of, and gives pipeline send/recv kernels without a communicator
// one, which matching needs.
func classify(r *run) error {
	r.missing = findMissing(r.t, r.src.TimedRanks())
	l, err := layout.Infer(r.t, r.opts.Layout)
	if err != nil {
		return err
	}
	r.layout = l
	r.warnings = append(r.warnings, l.Warnings...)
	r.prep.layout = result.Layout{TP: l.TP, PP: max(l.PP, 1), DP: l.DP, CP: l.CP, EP: l.EP, Order: l.Order, By: l.By}
	return nil
}

func align(r *run) error {
	r.inst = clock.Match(r.t)
	r.off = clock.Align(r.t, r.inst)
	r.prep.clock = result.ClockStats{Method: r.off.Method, ResidualNs: r.off.ResidualNs, Matched: r.off.Matched}
	for _, rk := range r.off.Unaligned {
		r.prep.clock.UnalignedRanks = append(r.prep.clock.UnalignedRanks, int(rk))
	}
	r.warnings = append(r.warnings, r.off.Warnings...)
	return nil
}

// segment finds the step windows (findSteps, or what startFind found) and
// places the iterations on the aligned clock.
func segment(r *run) error {
	f := r.takeFound()
	if f.err != nil {
		return f.err
	}
	s := f.s
	r.steps = s
	r.prep.stepsFrom = s.From
	r.prep.iters = iterations(r)
	r.prep.stepNs = meanStep(r.prep.iters)
	return nil
}

// foundSteps is findSteps' answer.
type foundSteps struct {
	s   steps.Steps
	err error
}

// findSteps finds every rank's step windows and sets the events'
// iterations. It reads the trace as classify left it and writes only
// Events.Iter, which align does not read: startFind runs it beside align.
func findSteps(r *run) foundSteps {
	s, err := steps.FindIn(r.t, r.src, r.opts.StepRegex)
	if err != nil {
		return foundSteps{err: err}
	}
	if len(r.opts.Steps) > 0 {
		s = selectSteps(s, r.opts.Steps)
	}
	if len(s.Iters) == 0 {
		return foundSteps{err: fmt.Errorf("no step is complete on every rank (method %s)", s.Method)}
	}
	return foundSteps{s: s}
}

// startFind is segment's Early part: findSteps on another goroutine
// (apart), its answer waited for in r.found by takeFound. On one core
// segment runs it itself, after align.
func startFind(r *run) {
	if runtime.GOMAXPROCS(0) <= 1 {
		return
	}
	var f foundSteps
	wait := apart(func() { f = findSteps(r) })
	r.found = func() foundSteps { wait(); return f }
}

// takeFound is what startFind found, or findSteps when it did not run.
func (r *run) takeFound() foundSteps {
	if r.found == nil {
		return findSteps(r)
	}
	f := r.found()
	r.found = nil
	return f
}

// selectSteps keeps the iterations listed in want.
func selectSteps(s steps.Steps, want []int32) steps.Steps {
	out := steps.Steps{Method: s.Method, From: s.From, Dropped: s.Dropped, ByRank: map[int32][]steps.Window{}}
	for i, it := range s.Iters {
		if !slices.Contains(want, it) {
			continue
		}
		out.Iters = append(out.Iters, it)
		for rk, ws := range s.ByRank {
			out.ByRank[rk] = append(out.ByRank[rk], ws[i])
		}
	}
	return out
}

// iterations places each analysed step on the aligned clock: from the
// earliest window start to the latest window end over ranks.
func iterations(r *run) []result.Iteration {
	out := make([]result.Iteration, len(r.steps.Iters))
	for i, it := range r.steps.Iters {
		lo, hi := int64(1<<62), int64(-1<<62)
		for rk, ws := range r.steps.ByRank {
			off := r.off.Of(rk)
			lo, hi = min(lo, ws[i].Start-off), max(hi, ws[i].End-off)
		}
		out[i] = result.Iteration{Index: int(it), StartNs: lo, DurationNs: max(hi-lo, 0)}
	}
	return out
}

func meanStep(its []result.Iteration) int64 {
	if len(its) == 0 {
		return 0
	}
	var sum int64
	for _, it := range its {
		sum += it.DurationNs
	}
	return sum / int64(len(its))
}
