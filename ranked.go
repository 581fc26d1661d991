package tpptrace

import (
	"context"
	"sync"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// openRanked reads the inputs rank by rank (Options.ByRank,
// docs/memory.md) when they are one dataset directory or sharded dataset,
// or trace files whose dataset cache entry is warm, or trace files of one
// timeline format whose entry it then writes as a sharded dataset
// (ingest.LoadRankedCold): the Trace's model holds only the cross-rank
// rows until an analysis needs every event (readAll). ok is false, with
// nothing read, for other inputs; src.Warn is then what the whole read is
// to warn with.
func openRanked(ctx context.Context, inputs []string, opts Options, src *source.Options) (*Trace, bool, error) {
	step := analysis.StepAnnotation(opts.StepRegex)
	rk, ok, err := ingest.LoadRanked(inputs, *src, opts.ByRankMinEvents, step)
	whole := *src
	full := func(ctx context.Context) (*model.Trace, error) { return ingest.Load(ctx, inputs, whole) }
	if !ok && !opts.NoCache {
		rk, ok, err = openCached(ctx, inputs, opts, src, step)
		full = func(ctx context.Context) (*model.Trace, error) {
			return ingest.LoadCached(ctx, inputs, whole, opts.CacheDir)
		}
	}
	if !ok || err != nil {
		return nil, ok, err
	}
	return rankedTrace(rk, opts, full), true, nil
}

// openCached reads the warm cache entry of the inputs rank by rank, or
// builds it (LoadRankedCold) unless their sizes say they are too small for
// that (ingest.MayHoldEvents). When that fell back, src.Warn leaves out
// the warnings already said, once each: the whole read says them again.
func openCached(ctx context.Context, inputs []string, opts Options, src *source.Options, step func(string) bool) (ingest.Ranked, bool, error) {
	if rk, ok := ingest.LoadRankedCached(inputs, *src, opts.CacheDir, opts.ByRankMinEvents, step); ok {
		return rk, true, nil
	}
	if !ingest.MayHoldEvents(inputs, opts.ByRankMinEvents) {
		return nil, false, nil
	}
	said := &saidWarnings{warn: src.Warn, said: map[string]int{}}
	cold := *src
	cold.Warn = said.say
	rk, ok, err := ingest.LoadRankedCold(ctx, inputs, cold, opts.CacheDir, opts.ByRankMinEvents, step)
	if !ok {
		src.Warn = said.unsaid
	}
	return rk, ok, err
}

// saidWarnings passes warnings on and counts them, so that a second read
// of the same inputs says only the new ones.
type saidWarnings struct {
	mu   sync.Mutex
	warn func(string)
	said map[string]int
}

func (s *saidWarnings) say(msg string) {
	s.mu.Lock()
	s.said[msg]++
	s.mu.Unlock()
	s.warn(msg)
}

// unsaid passes msg on unless it was said (as many times as it was).
func (s *saidWarnings) unsaid(msg string) {
	s.mu.Lock()
	n := s.said[msg]
	if n > 0 {
		s.said[msg] = n - 1
	}
	s.mu.Unlock()
	if n == 0 {
		s.warn(msg)
	}
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
