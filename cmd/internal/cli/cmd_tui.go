package cli

import (
	"context"
	"errors"
)

var tuiCmd = &Command{
	Name:    "tui",
	Summary: "(being built)",
	Usage:   "tpptrace tui",
	Run: func(ctx context.Context, env *Env, args []string) error {
		return errors.New("not built yet")
	},
}
