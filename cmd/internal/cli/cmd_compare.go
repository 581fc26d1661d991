package cli

import (
	"context"
	"errors"
)

var compareCmd = &Command{
	Name:    "compare",
	Summary: "(being built)",
	Usage:   "tpptrace compare",
	Run: func(ctx context.Context, env *Env, args []string) error {
		return errors.New("not built yet")
	},
}
