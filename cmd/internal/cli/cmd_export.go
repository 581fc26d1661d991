package cli

import (
	"context"
	"errors"
)

var exportCmd = &Command{
	Name:    "export",
	Summary: "(being built)",
	Usage:   "tpptrace export",
	Run: func(ctx context.Context, env *Env, args []string) error {
		return errors.New("not built yet")
	},
}
