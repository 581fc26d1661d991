package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest"
	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/report/html"
	"github.com/tpptrace/tpptrace/samples"
)

var reportCmd = &Command{
	Name:    "report",
	Summary: "write a shareable HTML + Markdown report with figures",
	Usage:   "tpptrace report [-o dir] <traces | dataset | result.json>  |  tpptrace report --sample <scenario> [-o dir]",
	Long: `Writes <dir>/report.html (self-contained: figures embedded, no external
reference; it opens offline and can be attached to a nightly job), <dir>/report.md
and the figures beside it as <dir>/figures/<name>.png and .svg: the timeline of
one step, per-stage breakdown, measured vs ideal bubble, a rank × step heatmap,
the arrival skew around a slow rank and α-β fits per communicator.

The input is trace files or directories or a dataset written by 'tpptrace ingest'
(read and analysed first), or a Result written by 'tpptrace analyze --json'. --sample renders a bundled simulated job
(see 'tpptrace samples list').

Examples:
  tpptrace report -o out/ run1.tpp/
  tpptrace analyze --json run1.tpp/ > r.json && tpptrace report -o out/ r.json
  tpptrace report --sample default -o docs/figures`,
}

func init() { reportCmd.Run = runReport }

// inputFlags are the input flags shared by report, pprof and export.
type inputFlags struct{ sample string }

func (in *inputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&in.sample, "sample", "", "use the bundled simulated `scenario` instead of an input")
}

func runReport(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, reportCmd)
	out := fs.String("o", "tpptrace-report", "output `dir`ectory")
	var in inputFlags
	in.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	r, _, err := in.load(ctx, env, fs.Args())
	if err != nil {
		return err
	}
	files, err := html.Write(*out, r)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %s, %s and %d figure files\n", files.HTML, files.Markdown, len(files.Figures))
	return nil
}

// load returns the Result to render and, when the input holds one, the
// trace (for kernel names and the Perfetto export).
func (in *inputFlags) load(ctx context.Context, env *Env, args []string) (*result.Result, *model.Trace, error) {
	switch {
	case in.sample != "" && len(args) > 0:
		return nil, nil, usagef("give --sample or an input, not both")
	case in.sample != "":
		return loadSample(ctx, in.sample)
	case len(args) == 0:
		return nil, nil, usagef("want an input: trace files or directories, a dataset, or a result .json")
	case len(args) == 1 && isResultFile(args[0]):
		r, err := readResult(args[0])
		return r, nil, err
	}
	t, err := ingest.Load(ctx, args, source.Options{Warn: func(msg string) { fmt.Fprintln(env.Stderr, "warning:", msg) }})
	if err != nil {
		return nil, nil, err
	}
	return analyse(ctx, env, t)
}

// isResultFile tells whether path is a JSON Result (it names its
// schema_version near the top; Chrome traces spell it schemaVersion).
func isResultFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte(`"schema_version"`))
}

func loadSample(ctx context.Context, name string) (*result.Result, *model.Trace, error) {
	cfg, err := samples.Lookup(name)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	job, err := samples.Simulate(cfg)
	if err != nil {
		return nil, nil, err
	}
	return analyse(ctx, nil, job.Trace)
}

func analyse(ctx context.Context, env *Env, t *model.Trace) (*result.Result, *model.Trace, error) {
	opts := analysis.Options{Tool: ToolVersion()}
	if env != nil && env.IsTTY {
		opts.Progress = func(step string) { fmt.Fprintf(env.Stderr, "analysis: %s\n", step) }
	}
	r, err := analysis.Analyze(ctx, t, opts)
	return r, t, err
}

// readResult reads a Result written by 'tpptrace analyze --json'.
func readResult(path string) (*result.Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r result.Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: reading result: %w", path, err)
	}
	if r.SchemaVersion > result.SchemaVersion {
		return nil, errors.New(path + ": result written by a newer tpptrace (schema " + fmt.Sprint(r.SchemaVersion) + ")")
	}
	return &r, nil
}
