package tpptrace

import (
	"context"
	"errors"
	"regexp"

	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/optable"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

// Options say how Open reads the inputs.
type Options struct {
	// Sample names a bundled simulated scenario (samples.Scenarios, as
	// `tpptrace samples list` shows them) to use instead of inputs.
	Sample string
	// StepRegex names the ranges that delimit steps, its first group the
	// step number (--step-regex); nil: the step-like names. It changes
	// what is read (and cached) and how Analyze segments the steps.
	StepRegex *regexp.Regexp
	// NoCache reads the raw traces again and keeps no dataset cache.
	NoCache bool
	// CacheDir is where the dataset cache lives; "": $TPPTRACE_CACHE or
	// the user cache directory, never beside the traces.
	CacheDir string
	// MaxMemory, when positive, bounds the live heap (bytes) while
	// reading; 0 is no limit. DefaultMaxMemory is the command's default.
	MaxMemory int64
	// Warn, when set, receives one-line warnings (skipped files, cache
	// failures), from any goroutine, also after Open returns while the
	// cache is written (until Close).
	Warn func(msg string)
	// Progress, when set, is called with the bytes read so far and the
	// bytes in all, from any goroutine.
	Progress func(done, total int64)
	// ByRank reads an input that is one dataset directory (sharded or
	// not), or trace files whose dataset cache entry is warm, rank by
	// rank; trace files of one timeline format (Kineto, or nsys exports),
	// with NCCL logs and NVML samples beside them or not, without an entry
	// have it written first as a sharded dataset, one shard of about
	// ingest.ShardEvents events after another (with NoCache into a
	// temporary directory that Close removes):
	// Analyze then holds every rank's events for the cross-rank steps
	// only, and one rank's whole events at a time (per core) for the rest,
	// so that its memory grows with the largest rank (docs/memory.md).
	// AnalyzeDetail and the what-if replay read every event first. Other
	// inputs are read as without it.
	ByRank bool
	// ByRankMinEvents limits ByRank to a dataset (or cache entry) holding
	// at least this many events, as its manifest counts them; smaller ones
	// are read whole, which is faster (each rank's file is decoded once,
	// not two or three times). 0 reads every one rank by rank.
	// ByRankAuto is the command's default.
	ByRankMinEvents int64
}

// ByRankAuto is the smallest job, in events, that `tpptrace analyze` reads
// rank by rank by default (--by-rank auto): read whole, such a job needs
// about 320 MiB (docs/memory.md); below it the whole read is faster.
const ByRankAuto = 2_000_000

// ErrUnknownSample is what Open's error wraps when Options.Sample names
// no bundled scenario.
var ErrUnknownSample = errors.New("unknown sample scenario")

// Open reads one job: a bundled scenario (Options.Sample); or one Result
// file, written by `tpptrace analyze --json`, taken as it is; or one op
// table (trace-*.parquet, or a dataset directory made of one); or trace
// files, directories and datasets, sniffed per file and ingested with the
// dataset cache. Close the Trace to wait for the cache write.
func Open(ctx context.Context, inputs []string, opts Options) (*Trace, error) {
	switch {
	case opts.Sample != "" && len(inputs) > 0:
		return nil, errors.New("give a sample or inputs, not both")
	case opts.Sample != "":
		return openSample(opts.Sample)
	case len(inputs) == 0:
		return nil, errors.New("no inputs: want trace files or directories, a dataset, or a result .json")
	case len(inputs) == 1 && IsResultFile(inputs[0]):
		r, err := ReadResult(inputs[0])
		if err != nil {
			return nil, err
		}
		return &Trace{res: r}, nil
	}
	if path, ok := opTablePath(inputs); ok {
		ot, err := optable.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return &Trace{ops: ot, opsPath: path}, nil
	}
	return openTraces(ctx, inputs, opts)
}

// openSample simulates a bundled scenario.
func openSample(name string) (*Trace, error) {
	cfg, err := samples.Lookup(name)
	if err != nil {
		return nil, sampleError{err}
	}
	job, err := samples.Simulate(cfg)
	if err != nil {
		return nil, err
	}
	return &Trace{model: job.Trace}, nil
}

// sampleError is an unknown scenario: it reads as samples' message and
// matches ErrUnknownSample.
type sampleError struct{ err error }

func (e sampleError) Error() string        { return e.err.Error() }
func (e sampleError) Unwrap() error        { return e.err }
func (e sampleError) Is(target error) bool { return target == ErrUnknownSample }

// openTraces ingests trace files, directories and datasets, through the
// dataset cache unless opts.NoCache.
func openTraces(ctx context.Context, inputs []string, opts Options) (*Trace, error) {
	src := source.Options{StepRegex: opts.StepRegex, Warn: opts.Warn, MaxMemory: opts.MaxMemory, Progress: opts.Progress}
	if src.Warn == nil {
		src.Warn = func(string) {}
	}
	if opts.ByRank {
		if t, ok, err := openRanked(ctx, inputs, opts, &src); ok {
			return t, err
		}
	}
	if opts.NoCache {
		t, err := ingest.Load(ctx, inputs, src)
		return traceOf(t, nil, opts, err)
	}
	t, wait, err := ingest.LoadCachedAsync(ctx, inputs, src, opts.CacheDir)
	return traceOf(t, wait, opts, err)
}

func traceOf(t *model.Trace, wait func(), opts Options, err error) (*Trace, error) {
	if err != nil {
		return nil, err
	}
	return &Trace{model: t, stepRe: opts.StepRegex, wait: wait}, nil
}

// opTablePath is the op table inputs name: one trace-*.parquet file, or a
// dataset directory made of one.
func opTablePath(inputs []string) (string, bool) {
	if len(inputs) != 1 {
		return "", false
	}
	return optable.Resolve(inputs[0])
}
