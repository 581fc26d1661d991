package cli

import (
	"context"
	"errors"
)

var hangCmd = &Command{
	Name:    "hang",
	Summary: "(being built)",
	Usage:   "tpptrace hang",
	Run: func(ctx context.Context, env *Env, args []string) error {
		return errors.New("not built yet")
	},
}
