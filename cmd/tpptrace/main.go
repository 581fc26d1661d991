// Command tpptrace tells why a distributed training step is slow. Run
// `tpptrace help` for the commands.
package main

import (
	"context"
	"os"
	"runtime/debug"

	"github.com/tpptrace/tpptrace/cmd/internal/cli"
)

// gcPercent is the collector's GOGC unless the environment sets one: the
// heap may grow 50 % past what was live at the last collection instead of
// Go's 100 %, which takes about a third off the peak memory of a big job
// for a few per cent of CPU (docs/performance.md).
const gcPercent = 50

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(cli.Run(context.Background(), os.Args[1:], cli.StdEnv()))
}
