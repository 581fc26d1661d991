package cli

import (
	"context"
	"errors"
)

var samplesCmd = &Command{
	Name:    "samples",
	Summary: "(being built)",
	Usage:   "tpptrace samples",
	Run: func(ctx context.Context, env *Env, args []string) error {
		return errors.New("not built yet")
	},
}
