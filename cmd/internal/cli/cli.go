// Package cli implements the tpptrace command line: a registry of commands
// (commands.go) that dispatch, help and the docs all read, and one small file
// per command that parses flags, calls the library (the module's root
// package: inputs to Result; report/gate: --fail-on) and prints.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tpptrace/tpptrace/model/vocab"
)

// Exit codes. They are stable: scripts and CI depend on them.
const (
	ExitOK         = 0 // success
	ExitError      = 1 // the command failed (bad input, I/O error)
	ExitUsage      = 2 // the command line is wrong
	ExitRegression = 3 // a gate failed: `compare` found a regression, `analyze --fail-on` matched
	ExitNoDevice   = 4 // the command needs a GPU driver that is not there
)

// Env is what a command may touch of the outside world.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer // data
	Stderr io.Writer // progress, warnings, errors
	IsTTY  bool      // stderr is a terminal: progress bars are allowed
	Color  bool      // colour is allowed (a terminal and NO_COLOR unset)
	Getenv func(string) string

	pending []func() // run when the command returns (atExit)
}

// atExit registers f to run once the command has returned, before the
// process exits: the cache write that runs beside the analysis.
func (e *Env) atExit(f func()) { e.pending = append(e.pending, f) }

// finish runs what atExit registered, in order.
func (e *Env) finish() {
	for _, f := range e.pending {
		f()
	}
	e.pending = nil
}

// StdEnv is the process's environment.
func StdEnv() *Env {
	color := isTerminal(os.Stdout) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
	return &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, IsTTY: isTerminal(os.Stderr),
		Color: color, Getenv: os.Getenv}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Command is one entry of the registry.
type Command struct {
	Name    string
	Summary string // one line, for `tpptrace help`
	Usage   string // "tpptrace analyze [flags] <traces|dataset>..."
	Long    string // paragraphs shown by `tpptrace help <name>`, examples included
	Run     func(ctx context.Context, env *Env, args []string) error
}

// UsageError marks a wrong command line; Run prints the command's usage and exits 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// usagef returns a *UsageError.
func usagef(format string, args ...any) error { return &UsageError{Msg: fmt.Sprintf(format, args...)} }

// CodeError carries a specific exit code with its message (empty: print nothing).
type CodeError struct {
	Code int
	Msg  string
}

func (e *CodeError) Error() string { return e.Msg }

// Run runs the command line args and returns the exit code.
func Run(ctx context.Context, args []string, env *Env) int {
	switch {
	case len(args) == 0:
		printHelp(env.Stderr) // a command line with no command is wrong: the usage, exit 2
		return ExitUsage
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help" && (len(args) == 1 || args[1] == "help"):
		printHelp(env.Stdout)
		return ExitOK
	case args[0] == "help":
		return helpTopic(env, args[1])
	case args[0] == "--version" || args[0] == "-version":
		args = []string{"version"}
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(env.Stderr, "tpptrace: unknown command %q; run 'tpptrace help'\n", args[0])
		return ExitUsage
	}
	err := cmd.Run(ctx, env, args[1:])
	env.finish()
	return report(env, cmd, err)
}

func report(env *Env, cmd *Command, err error) int {
	var ue *UsageError
	var ee *CodeError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.As(err, &ue):
		fmt.Fprintf(env.Stderr, "tpptrace %s: %s\nusage: %s\nrun 'tpptrace help %s' for more\n", cmd.Name, vocab.SafeLines(ue.Msg), cmd.Usage, cmd.Name)
		return ExitUsage
	case errors.As(err, &ee):
		if ee.Msg != "" {
			fmt.Fprintf(env.Stderr, "tpptrace %s: %s\n", cmd.Name, vocab.SafeLines(ee.Msg))
		}
		return ee.Code
	default:
		fmt.Fprintf(env.Stderr, "tpptrace %s: %s\n", cmd.Name, vocab.SafeLines(err.Error()))
		return ExitError
	}
}

func lookup(name string) *Command {
	for _, c := range Commands() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "tpptrace tells why a distributed (TP/PP/DP) training step is slow.")
	fmt.Fprintln(w, "\nusage: tpptrace <command> [flags] [args]\n\ncommands:")
	for _, c := range Commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.Name, c.Summary)
	}
	fmt.Fprintln(w, "\nRun 'tpptrace help <command>' for its flags and examples.")
	fmt.Fprintln(w, "Exit codes: 0 ok, 1 error, 2 usage, 3 gate failed (regression), 4 no GPU driver.")
}

func helpTopic(env *Env, name string) int {
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(env.Stderr, "tpptrace: unknown command %q; run 'tpptrace help' for the list\n", name)
		return ExitUsage
	}
	return report(env, c, c.Run(context.Background(), env, []string{"-h"}))
}

// newFlags returns a flag set whose -h prints the command's usage, its long
// help and its flags to env.Stdout.
func newFlags(env *Env, c *Command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stdout, "usage: %s\n\n%s\n", c.Usage, strings.TrimSpace(c.Long))
		if hasFlags(fs) {
			fmt.Fprintln(env.Stdout, "\nflags:")
			fs.SetOutput(env.Stdout)
			fs.PrintDefaults()
			fs.SetOutput(env.Stderr)
		}
	}
	return fs
}

// hasFlags tells whether fs defines any flag.
func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parse parses args with fs, turning flag errors into usage errors. Flags
// may follow the inputs ("analyze run/ --json"). The flag package's own
// output is silenced: -h prints the help, and a wrong flag is reported once,
// by report, with the one-line usage rather than the whole help.
func parse(fs *flag.FlagSet, args []string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(interleave(fs, args))
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		usage()
		return err
	}
	return &UsageError{Msg: err.Error()}
}
