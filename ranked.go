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
// docs/memory.md) when they are one dataset directory or sharded dataset
// (with files that hold no events beside it or not: NCCL logs, NVML
// samples, untimed Flight Recorder dumps, NCCL profiler traces and
// non-verbose Inspector records, whose parse is cached unless NoCache:
// ingest.LoadRankedCaching), or trace files whose dataset cache entry is
// warm, or trace files of one timeline format (with such files beside
// them or not) whose entry
// it then writes as a sharded dataset (ingest.LoadRankedCold; with NoCache
// into a temporary directory, openTemp): the Trace's model holds only the
// cross-rank rows until an analysis needs every event (readAll). ok is
// false, with nothing read, for other inputs; src.Warn is then what the
// whole read is to warn with.
func openRanked(ctx context.Context, inputs []string, opts Options, src *source.Options) (*Trace, bool, error) {
	step := analysis.StepAnnotation(opts.StepRegex)
	var rk ingest.Ranked
	wait := func() {}
	ok, err := coldWarnings(src, func(s source.Options) (ok bool, err error) {
		rk, wait, ok, err = loadDataset(inputs, opts, s, step)
		return ok, err
	})
	whole := *src
	full := func(ctx context.Context) (*model.Trace, error) { return ingest.Load(ctx, inputs, whole) }
	switch {
	case !ok && opts.NoCache:
		return openTemp(ctx, inputs, opts, src, step)
	case !ok:
		rk, ok, err = openCached(ctx, inputs, opts, src, step)
		full = func(ctx context.Context) (*model.Trace, error) {
			return ingest.LoadCached(ctx, inputs, whole, opts.CacheDir)
		}
	}
	if !ok || err != nil {
		return nil, ok, err
	}
	t := rankedTrace(rk, opts, full)
	t.wait = wait
	return t, true, nil
}

// loadDataset reads a dataset rank by rank (ingest.LoadRanked), keeping
// the parse of the files beside it unless NoCache
// (ingest.LoadRankedCaching); wait returns once that cache entry is
// written (Close).
func loadDataset(inputs []string, opts Options, src source.Options, step func(string) bool) (rk ingest.Ranked, wait func(), ok bool, err error) {
	if opts.NoCache {
		rk, ok, err = ingest.LoadRanked(inputs, src, opts.ByRankMinEvents, step)
		return rk, func() {}, ok, err
	}
	return ingest.LoadRankedCaching(inputs, src, opts.CacheDir, opts.ByRankMinEvents, step)
}

// openCached reads the warm cache entry of the inputs rank by rank, or
// builds it (LoadRankedCold).
func openCached(ctx context.Context, inputs []string, opts Options, src *source.Options, step func(string) bool) (ingest.Ranked, bool, error) {
	if rk, ok := ingest.LoadRankedCached(inputs, *src, opts.CacheDir, opts.ByRankMinEvents, step); ok {
		return rk, true, nil
	}
	return openCold(ctx, inputs, opts, src, step)
}

// openCold builds the cache entry of the inputs and reads it rank by rank
// (LoadRankedCold), unless their sizes say they are too small for that
// (ingest.MayHoldEvents). When that fell back, src.Warn leaves out the
// warnings already said, once each: the whole read says them again.
func openCold(ctx context.Context, inputs []string, opts Options, src *source.Options, step func(string) bool) (ingest.Ranked, bool, error) {
	if !ingest.MayHoldEvents(inputs, opts.ByRankMinEvents) {
		return nil, false, nil
	}
	var rk ingest.Ranked
	ok, err := coldWarnings(src, func(cold source.Options) (ok bool, err error) {
		rk, ok, err = ingest.LoadRankedCold(ctx, inputs, cold, opts.CacheDir, opts.ByRankMinEvents, step)
		return ok, err
	})
	return rk, ok, err
}

// coldWarnings runs a read rank by rank with src's warnings counted; when
// it fell back (ok false), src.Warn is left to say only the others.
func coldWarnings(src *source.Options, read func(cold source.Options) (bool, error)) (bool, error) {
	said := &saidWarnings{warn: src.Warn, said: map[string]int{}}
	cold := *src
	cold.Warn = said.say
	ok, err := read(cold)
	if !ok {
		src.Warn = said.unsaid
	}
	return ok, err
}

// openTemp is openCold for NoCache: the entry is built in a temporary
// directory (ingest.LoadRankedTemp), removed when the trace no longer
// reads it (Close, or readAll), or at once when the read failed or fell
// back; the whole read reads the inputs again, without a cache.
func openTemp(ctx context.Context, inputs []string, opts Options, src *source.Options, step func(string) bool) (*Trace, bool, error) {
	if !ingest.MayHoldEvents(inputs, opts.ByRankMinEvents) {
		return nil, false, nil
	}
	var rk ingest.Ranked
	var remove func()
	ok, err := coldWarnings(src, func(cold source.Options) (ok bool, err error) {
		rk, remove, ok, err = ingest.LoadRankedTemp(ctx, inputs, cold, opts.CacheDir, opts.ByRankMinEvents, step)
		return ok, err
	})
	if !ok || err != nil {
		return nil, ok, err
	}
	whole := *src
	t := rankedTrace(rk, opts, func(ctx context.Context) (*model.Trace, error) { return ingest.Load(ctx, inputs, whole) })
	t.drop = remove
	return t, true, nil
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
// inputs read whole), for the analyses that read them all at once; a
// temporary entry is removed once they are read.
func (t *Trace) readAll(ctx context.Context) error {
	if t.full == nil {
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
	t.release()
	return nil
}

// release removes the temporary entry of a NoCache trace read rank by
// rank (openTemp). A trace still read rank by rank then reads every event
// again when next analysed (readAll): its ranks' events were in the entry.
func (t *Trace) release() {
	if t.drop == nil {
		return
	}
	t.drop()
	t.drop = nil
	t.ranked, t.events = nil, 0
}
