package cli

import (
	"context"
	"errors"
)

var analyzeCmd = &Command{
	Name:    "analyze",
	Summary: "(being built)",
	Usage:   "tpptrace analyze",
	Run: func(ctx context.Context, env *Env, args []string) error {
		return errors.New("not built yet")
	},
}
