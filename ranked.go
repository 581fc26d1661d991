package tpptrace

import (
	"context"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// openRanked reads the inputs rank by rank (Options.ByRank,
// docs/memory.md) when they are one dataset directory or sharded dataset,
// or trace files
// whose dataset cache entry is warm: the Trace's model holds only the
// cross-rank rows until an analysis needs every event (readAll). ok is
// false, with nothing read, for other inputs.
func openRanked(inputs []string, opts Options, src source.Options) (*Trace, bool, error) {
	step := analysis.StepAnnotation(opts.StepRegex)
	rk, ok, err := ingest.LoadRanked(inputs, src, opts.ByRankMinEvents, step)
	full := func(ctx context.Context) (*model.Trace, error) { return ingest.Load(ctx, inputs, src) }
	if !ok && !opts.NoCache {
		var cached *dataset.Ranked
		if cached, ok = ingest.LoadRankedCached(inputs, src, opts.CacheDir, opts.ByRankMinEvents, step); ok {
			rk = cached
		}
		full = func(ctx context.Context) (*model.Trace, error) {
			return ingest.LoadCached(ctx, inputs, src, opts.CacheDir)
		}
	}
	if !ok || err != nil {
		return nil, ok, err
	}
	return rankedTrace(rk, opts, full), true, nil
}

func rankedTrace(rk ingest.Ranked, opts Options, full func(context.Context) (*model.Trace, error)) *Trace {
	return &Trace{model: rk.Model(), stepRe: opts.StepRegex, ranked: rk, events: int(rk.EventCount()), full: full}
}

// readAll replaces a trace read rank by rank with every event (the same
// inputs read whole), for the analyses that read them all at once.
func (t *Trace) readAll(ctx context.Context) error {
	if t.ranked == nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	m, err := t.full(ctx)
	if err != nil {
		return err
	}
	t.model, t.ranked, t.events, t.full = m, nil, 0, nil
	return nil
}
