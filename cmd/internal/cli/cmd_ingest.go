package cli

import (
	"context"
	"errors"
)

var ingestCmd = &Command{
	Name:    "ingest",
	Summary: "(being built)",
	Usage:   "tpptrace ingest",
	Run: func(ctx context.Context, env *Env, args []string) error {
		return errors.New("not built yet")
	},
}
