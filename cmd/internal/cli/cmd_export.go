package cli

import (
	"context"
	"io"

	"github.com/tpptrace/tpptrace/report/perfetto"
)

var exportCmd = &Command{
	Name:    "export",
	Summary: "export the aligned multi-rank timeline for Perfetto / chrome://tracing",
	Usage:   "tpptrace export --perfetto [-o file.json] <traces | dataset | result.json>  |  tpptrace export --perfetto --sample <scenario>",
	Long: `Writes a Chrome/Perfetto JSON trace that opens in ui.perfetto.dev: one process
per rank, one thread per stream, every event on the aligned clock (rank 0's),
the classified step (bubbles, exposed and overlapped communication) on a
"tpptrace: classified step" track per rank, and the findings as annotations.
From a result alone only the classified step and the findings are written.

Examples:
  tpptrace export --perfetto -o run1.perfetto.json run1.tpp/`,
}

func init() { exportCmd.Run = runExport }

func runExport(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, exportCmd)
	pf := fs.Bool("perfetto", false, "write a Chrome/Perfetto JSON trace (the only format so far)")
	out := fs.String("o", "-", "output `file` (- for stdout)")
	var in inputFlags
	in.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if !*pf {
		return usagef("choose a format: --perfetto")
	}
	r, t, err := in.load(ctx, env, fs.Args())
	if err != nil {
		return err
	}
	return writeOut(env, *out, func(w io.Writer) error { return perfetto.Write(w, r, t) })
}
