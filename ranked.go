package tpptrace

import (
	"context"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/source"
)

// openRanked reads one dataset directory rank by rank (Options.ByRank,
// docs/memory.md): the Trace's model holds only the cross-rank rows until
// an analysis needs every event. ok is false, with nothing read, for other
// inputs.
func openRanked(inputs []string, opts Options) (*Trace, bool, error) {
	rk, ok, err := ingest.LoadRanked(inputs, analysis.StepAnnotation(opts.StepRegex))
	if !ok || err != nil {
		return nil, ok, err
	}
	src := source.Options{StepRegex: opts.StepRegex, Warn: opts.Warn, MaxMemory: opts.MaxMemory}
	return &Trace{model: rk.Trace, stepRe: opts.StepRegex, ranked: rk, events: int(rk.EventCount()), inputs: inputs, src: src}, true, nil
}

// readAll replaces a trace read rank by rank with every event (ingest.Load
// of the same inputs), for the analyses that read them all at once.
func (t *Trace) readAll(ctx context.Context) error {
	if t.ranked == nil {
		return nil
	}
	m, err := ingest.Load(ctx, t.inputs, t.src)
	if err != nil {
		return err
	}
	t.model, t.ranked, t.events = m, nil, 0
	return nil
}
