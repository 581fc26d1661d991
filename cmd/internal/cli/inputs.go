package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"regexp"
	"time"

	"github.com/tpptrace/tpptrace"
	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/optable"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// inputFlags are the flags of every command that reads one job: the layout
// and step flags of analyze, and --sample for a bundled simulated job.
// They become the options of tpptrace.Open and Trace.Analyze.
type inputFlags struct {
	analyzeFlags
	sample  string
	noCache bool
	mem     memFlag

	// For the TUI: where reading and analysis report progress instead of
	// stderr, and whether load keeps the analysis's Detail.
	onRead     func(done, total int64)
	onStep     func(step string)
	keepDetail bool
	detail     *analysis.Detail

	// byRank reads a dataset rank by rank (tpptrace.Options.ByRank) when it
	// holds byRankMin events or more: for commands that print the Result
	// only (analyze --by-rank).
	byRank    bool
	byRankMin int64
}

func (in *inputFlags) register(fs *flag.FlagSet) {
	in.analyzeFlags.register(fs)
	in.mem.register(fs)
	fs.StringVar(&in.sample, "sample", "", "use the bundled simulated `scenario` instead of an input ('tpptrace samples list')")
	fs.BoolVar(&in.noCache, "no-cache", false, "read the raw traces again and keep no dataset cache (the cache lives in $"+ingest.CacheEnv+" or the user cache directory, never beside the traces)")
}

// load returns the Result of the inputs and, when they hold one, the trace
// (tpptrace.Open, then Trace.Analyze): a Result file is read as it is;
// traces, directories and datasets are ingested (with the dataset cache)
// and analysed; --sample simulates a bundled scenario.
func (in *inputFlags) load(ctx context.Context, env *Env, args []string) (*result.Result, *model.Trace, error) {
	switch {
	case in.sample != "" && len(args) > 0:
		return nil, nil, usagef("give --sample or an input, not both")
	case in.sample == "" && len(args) == 0:
		return nil, nil, usagef("want an input: trace files or directories, a dataset, or a result .json")
	}
	opts, stepRe, err := in.options()
	if err != nil {
		return nil, nil, err
	}
	tr, err := in.open(ctx, env, args, stepRe)
	if err != nil {
		return nil, nil, err
	}
	return in.analyze(ctx, env, tr, opts)
}

// analyze runs the analysis, its progress on stderr or to the TUI.
func (in *inputFlags) analyze(ctx context.Context, env *Env, tr *tpptrace.Trace, opts tpptrace.AnalyzeOptions) (*result.Result, *model.Trace, error) {
	t := tr.Model()
	stop := func() {}
	if t != nil {
		opts.Progress, stop = analysisProgress(env)
		if in.onStep != nil {
			opts.Progress = in.onStep
		}
	}
	var r *result.Result
	var err error
	if in.keepDetail {
		r, in.detail, err = tr.AnalyzeDetail(ctx, opts)
	} else {
		r, err = tr.Analyze(ctx, opts)
	}
	stop()
	return r, t, err
}

// open reads the inputs, or simulates the --sample scenario, with the
// progress bar and warnings on stderr (or the TUI's progress); the dataset
// cache is written while the trace is analysed, and waited for at exit.
func (in *inputFlags) open(ctx context.Context, env *Env, args []string, stepRe *regexp.Regexp) (*tpptrace.Trace, error) {
	start := time.Now()
	var warns warnings
	var src source.Options
	stop := startProgress(env, &src)
	opts := tpptrace.Options{Sample: in.sample, StepRegex: stepRe, NoCache: in.noCache, MaxMemory: in.mem.bytes(),
		Warn: warns.Add, Progress: src.Progress, ByRank: in.byRank && !in.whatif && !in.keepDetail, ByRankMinEvents: in.byRankMin}
	if in.onRead != nil {
		opts.Progress = in.onRead
	}
	tr, err := tpptrace.Open(ctx, args, opts)
	env.atExit(func() { tr.Close(); warns.flush(env, nil) })
	stop()
	warns.flush(env, err)
	switch {
	case errors.Is(err, tpptrace.ErrUnknownSample):
		return nil, usagef("%v", err)
	case err != nil:
		return nil, err
	case in.sample == "" && tr.Model() != nil:
		t := tr.Model()
		fmt.Fprintf(env.Stderr, "read %s, %s in %s\n", plural(len(t.Ranks), "rank"), plural(tr.EventCount(), "event"), time.Since(start).Round(time.Millisecond))
		warnPositioned(env, t)
	}
	return tr, nil
}

// maxPositioned is how many positioned skips stderr lists.
const maxPositioned = 10

// warnPositioned names on stderr the skipped items that have a position in
// a file that was read (a line, a byte offset): a bad event or line, a cut
// name. The unpositioned records (categories not used) stay in the report;
// files skipped as a whole were named while loading.
func warnPositioned(env *Env, t *model.Trace) {
	read := map[string]bool{}
	for _, s := range t.Sources {
		read[s.Path] = true
	}
	n := 0
	for _, s := range t.Skipped {
		if s.Offset < 0 || s.Unit == "" || !read[s.Source] {
			continue
		}
		if n++; n <= maxPositioned {
			fmt.Fprintf(env.Stderr, "warning: %s: %s %d: %s (×%d)\n", vocab.Safe(s.Source), s.Unit, s.Offset, vocab.Safe(s.Reason), s.Count)
		}
	}
	if n > maxPositioned {
		fmt.Fprintf(env.Stderr, "warning: %d more skipped items with a position: 'tpptrace ingest --json' lists every one\n", n-maxPositioned)
	}
}

// plural writes "1 rank", "2 ranks".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// analysisProgress shows the current analysis step on one line of an
// interactive stderr; stop erases it.
func analysisProgress(env *Env) (progress func(string), stop func()) {
	if !env.IsTTY {
		return nil, func() {}
	}
	return func(step string) { fmt.Fprintf(env.Stderr, "\r\033[Kanalysis: %s", step) },
		func() { fmt.Fprint(env.Stderr, "\r\033[K") }
}

// optableArg is the op table args name: one trace-*.parquet file, or a
// dataset directory ingest made of one.
func optableArg(args []string) (string, bool) {
	if len(args) != 1 {
		return "", false
	}
	return optable.Resolve(args[0])
}

// setByRank takes --by-rank: auto (rank by rank from tpptrace.ByRankAuto
// events on), on (always) or off (never).
func (in *inputFlags) setByRank(mode string) error {
	switch mode {
	case "auto":
		in.byRank, in.byRankMin = true, tpptrace.ByRankAuto
	case "on":
		in.byRank, in.byRankMin = true, 0
	case "off":
		in.byRank = false
	default:
		return usagef("--by-rank: %q is not auto, on or off", mode)
	}
	return nil
}
