package cli

import (
	"context"
	"errors"
)

var pprofCmd = &Command{
	Name:    "pprof",
	Summary: "(being built)",
	Usage:   "tpptrace pprof",
	Run: func(ctx context.Context, env *Env, args []string) error {
		return errors.New("not built yet")
	},
}
