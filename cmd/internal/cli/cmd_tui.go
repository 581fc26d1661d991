package cli

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/tpptrace/tpptrace"
	"github.com/tpptrace/tpptrace/analysis"
	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/tui"
	"github.com/tpptrace/tpptrace/tui/events"
	"github.com/tpptrace/tpptrace/tui/explore"
)

var tuiCmd = &Command{
	Name:    "tui",
	Summary: "explore the diagnosis in the terminal: overview, per-rank timeline, ranks, findings",
	Usage:   "tpptrace tui [flags] <traces | dataset | result.json>  |  tpptrace tui --sample <scenario>",
	Long: `Opens an interactive terminal view of one job: the overview (layout, schedule,
per-stage table, top findings), the classified timeline of every step for every rank
(time axis, zoom, pan, step picker, event selection with the collective's members),
a sortable table of every rank and the findings with their evidence and remedy
(enter jumps to the timeline). Loading and analysis run in the background with
their progress; q cancels them. With --baseline a Regressions pane compares the
run with a baseline Result, as 'tpptrace compare' does.

Keys: tab / shift+tab switch panes, ? shows every key, / searches event names,
q quits. See docs/tui.md.

Examples:
  tpptrace tui run1/
  tpptrace tui --baseline base.json run2/
  tpptrace analyze --json run1/ > r.json && tpptrace tui r.json
  tpptrace tui --sample slow-rank`,
}

func init() { tuiCmd.Run = runTUI }

func runTUI(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, tuiCmd)
	var in inputFlags
	in.register(fs)
	baseline := fs.String("baseline", "", "a baseline Result `file` (analyze --json): adds the Regressions pane")
	if err := parse(fs, args); err != nil {
		return err
	}
	if in.sample == "" && fs.NArg() == 0 {
		return usagef("want an input: trace files or directories, a dataset, or a result .json")
	}
	var opts []tui.Option
	if *baseline != "" {
		base, err := tpptrace.ReadResult(*baseline)
		if err != nil {
			return err
		}
		opts = append(opts, tui.WithBaseline(base, *baseline))
	}
	var rec loadRecord
	err := tui.Run(ctx, tuiLoader(&in, env, fs.Args(), &rec), opts...)
	if err != nil {
		return err
	}
	if err := rec.get(); !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// tuiLoader reads and analyses the inputs for the TUI, reporting the bytes
// read and the analysis steps, and hands over the events of traces.
func tuiLoader(in *inputFlags, env *Env, args []string, rec *loadRecord) tui.Loader {
	return func(ctx context.Context, progress func(tui.ProgressMsg)) (*result.Result, *events.Data, error) {
		quiet := &Env{Stdout: env.Stdout, Stderr: discard{}, Getenv: env.Getenv}
		in.onRead = throttle(func(done, total int64) { progress(tui.ProgressMsg{Done: done, Total: total}) })
		in.onStep = func(step string) {
			i := slices.IndexFunc(analysis.Steps, func(s analysis.Step) bool { return s.Name == step })
			progress(tui.ProgressMsg{Step: step, Index: i + 1, Steps: len(analysis.Steps)})
		}
		in.keepDetail = true
		r, t, err := in.load(ctx, quiet, args)
		quiet.finish() // the dataset cache, written while the trace was analysed
		if err != nil {
			return nil, nil, rec.set(err)
		}
		var data *events.Data
		if t != nil && in.detail != nil {
			data = explore.Build(t, in.detail)
		}
		return r, data, nil
	}
}

// throttle passes on at most one report per 50 ms, and the last one, so
// that reading does not flood the UI loop with messages.
func throttle(f func(done, total int64)) func(done, total int64) {
	var mu sync.Mutex
	var last time.Time
	return func(done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		if now := time.Now(); now.Sub(last) >= 50*time.Millisecond || done >= total {
			last = now
			f(done, total)
		}
	}
}

// loadRecord keeps the TUI loader's error: after the TUI closes on inputs
// that could not be loaded, the command prints it again on the normal
// screen and exits 1 (the TUI only showed it).
type loadRecord struct {
	mu  sync.Mutex
	err error
}

func (l *loadRecord) set(err error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.err = err
	return err
}

func (l *loadRecord) get() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// discard swallows progress lines that would tear the TUI's screen.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
