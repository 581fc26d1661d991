package cli

import (
	"context"
	"errors"
)

var reportCmd = &Command{
	Name:    "report",
	Summary: "(being built)",
	Usage:   "tpptrace report",
	Run: func(ctx context.Context, env *Env, args []string) error {
		return errors.New("not built yet")
	},
}
