package cli

import (
	"context"
	"sync"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/tui"
)

var tuiCmd = &Command{
	Name:    "tui",
	Summary: "explore the diagnosis in the terminal: overview, per-rank timeline, ranks, findings",
	Usage:   "tpptrace tui [flags] <traces | dataset | result.json>  |  tpptrace tui --sample <scenario>",
	Long: `Opens an interactive terminal view of one job: the overview (layout, schedule,
per-stage table, top findings), the classified timeline of one step for every rank
(zoom and pan), a sortable table of every rank and the findings with their evidence
and remedy. Loading and analysis run in the background with progress.

Keys: tab / shift+tab switch panes, j/k move, h/l pan and +/- zoom the timeline,
s sorts the rank table, q quits. See docs/tui.md.

Examples:
  tpptrace tui run1/
  tpptrace analyze --json run1/ > r.json && tpptrace tui r.json
  tpptrace tui --sample slow-rank`,
}

func init() { tuiCmd.Run = runTUI }

func runTUI(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, tuiCmd)
	var in inputFlags
	in.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if in.sample == "" && fs.NArg() == 0 {
		return usagef("want an input: trace files or directories, a dataset, or a result .json")
	}
	quiet := &Env{Stdout: env.Stdout, Stderr: discard{}, Getenv: env.Getenv}
	var rec loadRecord
	if err := tui.Run(func(progress func(done, total int64)) (*result.Result, error) {
		r, _, err := in.load(ctx, quiet, fs.Args())
		return r, rec.set(err)
	}); err != nil {
		quiet.finish()
		return err
	}
	quiet.finish()
	return rec.get()
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
