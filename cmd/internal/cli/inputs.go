package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/model/vocab"
	"github.com/tpptrace/tpptrace/ingest/optable"
	"github.com/tpptrace/tpptrace/ingest/source"
	rpt "github.com/tpptrace/tpptrace/report"
	"github.com/tpptrace/tpptrace/samples"
)

// inputFlags are the flags of every command that reads one job: the layout
// and step flags of analyze, and --sample for a bundled simulated job.
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
}

func (in *inputFlags) register(fs *flag.FlagSet) {
	in.analyzeFlags.register(fs)
	in.mem.register(fs)
	fs.StringVar(&in.sample, "sample", "", "use the bundled simulated `scenario` instead of an input ('tpptrace samples list')")
	fs.BoolVar(&in.noCache, "no-cache", false, "read the raw traces again and keep no dataset cache (the cache lives in $"+ingest.CacheEnv+" or the user cache directory, never beside the traces)")
}

// load returns the Result of the inputs and, when they hold one, the trace.
// A Result file (written by 'analyze --json') is read as it is; traces,
// directories and datasets are ingested (with the dataset cache) and
// analysed; --sample simulates a bundled scenario.
func (in *inputFlags) load(ctx context.Context, env *Env, args []string) (*result.Result, *model.Trace, error) {
	switch {
	case in.sample != "" && len(args) > 0:
		return nil, nil, usagef("give --sample or an input, not both")
	case in.sample == "" && len(args) == 0:
		return nil, nil, usagef("want an input: trace files or directories, a dataset, or a result .json")
	}
	opts, err := in.options()
	if err != nil {
		return nil, nil, err
	}
	if len(args) == 1 && isResultFile(args[0]) {
		r, err := readResult(args[0])
		if err == nil {
			analysis.Throughput(r, opts.Model)
		}
		return r, nil, err
	}
	if path, ok := optableArg(args); ok {
		ot, err := optable.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		r, err := analysis.AnalyzeOpTable(ot, path, opts)
		return r, nil, err
	}
	t, err := in.trace(ctx, env, args, opts)
	if err != nil {
		return nil, nil, err
	}
	var stop func()
	opts.Progress, stop = analysisProgress(env)
	if in.onStep != nil {
		opts.Progress = in.onStep
	}
	var r *result.Result
	if in.keepDetail {
		r, in.detail, err = analysis.AnalyzeDetail(ctx, t, opts)
	} else {
		r, err = analysis.Analyze(ctx, t, opts)
	}
	stop()
	return r, t, err
}

// trace reads the inputs, or simulates the --sample scenario.
func (in *inputFlags) trace(ctx context.Context, env *Env, args []string, opts analysis.Options) (*model.Trace, error) {
	if in.sample != "" {
		cfg, err := samples.Lookup(in.sample)
		if err != nil {
			return nil, usagef("%v", err)
		}
		job, err := samples.Simulate(cfg)
		if err != nil {
			return nil, err
		}
		return job.Trace, nil
	}
	start := time.Now()
	var warns warnings
	src := source.Options{StepRegex: opts.StepRegex, Warn: warns.add, MaxMemory: in.mem.bytes()}
	stop := startProgress(env, &src)
	if in.onRead != nil {
		src.Progress = in.onRead
	}
	load := func() (*model.Trace, error) {
		t, wait, err := ingest.LoadCachedAsync(ctx, args, src, "")
		env.atExit(func() { wait(); warns.flush(env, nil) }) // the cache is written while the trace is analysed
		return t, err
	}
	if in.noCache {
		load = func() (*model.Trace, error) { return ingest.Load(ctx, args, src) }
	}
	t, err := load()
	stop()
	warns.flush(env, err)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(env.Stderr, "read %s, %s in %s\n", plural(len(t.Ranks), "rank"), plural(t.Events.Len(), "event"), time.Since(start).Round(time.Millisecond))
	warnPositioned(env, t)
	return t, nil
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

// isResultFile tells whether path is a JSON Result (it names its
// schema_version near the top; Chrome traces spell it schemaVersion).
func isResultFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.IsDir() {
		return false
	}
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte(`"schema_version"`))
}

// readResult reads a Result written by 'tpptrace analyze --json'.
func readResult(path string) (*result.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := rpt.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// optableArg is the op table args name: one trace-*.parquet file, or a
// dataset directory ingest made of one.
func optableArg(args []string) (string, bool) {
	if len(args) != 1 {
		return "", false
	}
	return optable.Resolve(args[0])
}
