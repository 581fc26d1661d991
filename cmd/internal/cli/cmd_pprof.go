package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/tpptrace/tpptrace/report/pprofx"
)

var pprofCmd = &Command{
	Name:    "pprof",
	Summary: "write step time as a pprof profile (flame graph, -diff_base)",
	Usage:   "tpptrace pprof [-o file.pb.gz] <traces | dataset | result.json>  |  tpptrace pprof --sample <scenario>",
	Long: `Writes a pprof profile whose samples are the time of one representative step,
attributed along rank → stage → phase → category (compute, exposed TP/PP/DP
communication, bubble, idle) → kernel, with labels rank, stage, phase and axis.
Kernel leaves need a dataset (a result alone has no kernel names).

Examples:
  tpptrace pprof -o run1.pb.gz run1.tpp/ && go tool pprof -http=: run1.pb.gz
  go tool pprof -diff_base=run1.pb.gz run2.pb.gz
  go tool pprof -tagfocus='rank=^3$' -top run1.pb.gz`,
}

func init() { pprofCmd.Run = runPprof }

func runPprof(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, pprofCmd)
	out := fs.String("o", "tpptrace.pb.gz", "output `file` (- for stdout)")
	var in inputFlags
	in.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	r, t, err := in.load(ctx, env, fs.Args())
	if err != nil {
		return err
	}
	p, err := pprofx.Profile(r, t)
	if err != nil {
		return err
	}
	return writeOut(env, *out, func(w io.Writer) error { return p.Write(w) })
}

// writeOut writes to path, or to stdout when path is "-".
func writeOut(env *Env, path string, write func(io.Writer) error) error {
	if path == "-" {
		return write(env.Stdout)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %s\n", path)
	return nil
}
