package analysis

import (
	"context"
	"fmt"

	"github.com/tpptrace/tpptrace/analysis/diagnose"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/analysis/whatif"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// WhatIfGraph runs the steps the replay needs (classify, align, segment)
// on t and builds its op graph (analysis/whatif.FromTrace).
func WhatIfGraph(ctx context.Context, t *model.Trace, opts Options) (*whatif.Graph, error) {
	r := newRun(t, opts)
	for _, s := range Steps[:3] {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := s.Run(r); err != nil {
			return nil, fmt.Errorf("analysis: %s: %w", s.Name, err)
		}
	}
	return graphOf(r)
}

func graphOf(r *run) (*whatif.Graph, error) {
	in := whatif.TraceInput{Trace: r.t, Instances: r.inst, Offset: r.off.Of, Iters: r.steps.Iters}
	for _, it := range r.prep.iters {
		in.IterStart = append(in.IterStart, it.StartNs)
	}
	g, err := whatif.FromTrace(in)
	if err != nil {
		return nil, fmt.Errorf("analysis: whatif: %w", err)
	}
	return g, nil
}

// whatifStep replays the step graph when Options.WhatIf asks for it: the
// whatif summary (the Result's whatif section), and the replayed gains quoted by the slow-rank
// and stage-imbalance findings. A graph that cannot be built is a warning.
func whatifStep(r *run) error {
	if !r.opts.WhatIf {
		return nil
	}
	g, err := graphOf(r)
	if err != nil {
		r.warnings = append(r.warnings, err.Error())
		return nil
	}
	slow := int32(-1)
	if len(r.diag.slow) > 0 {
		slow = int32(r.diag.slow[0].Rank)
	}
	rep, preds, paths := whatif.Run(g, whatif.Defaults(g, slow))
	r.whatif = whatif.Summary(g, rep, preds, paths)
	r.pathStep(g, paths)
	r.quoteReplay()
	return nil
}

// quoteReplay makes the replayed gain of the matching scenario the cost of
// the slow-rank and stage-imbalance findings, when the replay's self-check
// held (no prediction is withheld); the heuristic estimate stays as
// evidence. The findings are ranked again by cost.
func (r *run) quoteReplay() {
	gain := map[string]result.WhatIfScenario{}
	for _, s := range r.whatif.Scenarios {
		gain[s.Name] = s
	}
	for i := range r.diag.findings {
		f := &r.diag.findings[i]
		name := ""
		switch {
		case f.Kind == vocab.KindSlowRank && len(f.Ranks) > 0:
			name = fmt.Sprintf("fix rank %d", f.Ranks[0])
		case f.Kind == vocab.KindImbalance:
			name = "balance stages"
		}
		if s, ok := gain[name]; ok && name != "" {
			r.quote(f, s)
		}
	}
	diagnose.Rank(r.diag.findings)
}

// quote gives f the replayed gain of scenario s as its cost.
func (r *run) quote(f *result.Finding, s result.WhatIfScenario) {
	f.Evidence = append(f.Evidence, result.Say(vocab.SayReplay, result.Ns("step", s.StepNs), result.Ns("gain", s.GainNs),
		result.Frac("gain_share", float64(s.GainNs)/float64(max(r.whatif.TraceStepNs, 1)))).Quoting("scenario", s.Name))
	if r.whatif.Withheld != "" || s.GainNs <= 0 {
		return
	}
	f.Evidence = append(f.Evidence, result.Say(vocab.SayReplayCost, result.Ns("estimate", f.CostNs)))
	f.CostNs = s.GainNs
	if r.prep.stepNs > 0 {
		f.CostShare = float64(s.GainNs) / float64(r.prep.stepNs)
	}
	f.Severity = diagnose.Severity(f.CostShare)
}

// pathStep keeps the critical path's ops of the timeline's step (else the
// first analysed one) for the views.
func (r *run) pathStep(g *whatif.Graph, paths []whatif.Path) {
	k := 0
	its, tl := r.prep.iters, r.diag.timeline
	for i, it := range its {
		if tl != nil && it.Index == tl.Iteration {
			k = i
		}
	}
	if k >= len(paths) || k >= len(its) {
		return
	}
	r.whatif.CriticalPathStep = its[k].Index
	r.whatif.CriticalPathOps = g.PathOps(paths[k], its[k].StartNs)
}
