package cli

import (
	"context"
	"errors"
)

var sampleCmd = &Command{
	Name:    "sample",
	Summary: "(being built)",
	Usage:   "tpptrace sample",
	Run: func(ctx context.Context, env *Env, args []string) error {
		return errors.New("not built yet")
	},
}
