// Command tpptrace tells why a distributed training step is slow. Run
// `tpptrace help` for the commands.
package main

import (
	"context"
	"os"

	"github.com/tpptrace/tpptrace/cmd/internal/cli"
	"github.com/tpptrace/tpptrace/cmd/internal/gcfloor"
)

// gcPercent is the collector's GOGC unless the environment sets one: the
// heap may grow 50 % past what was live at the last collection instead of
// Go's 100 %, which takes about a third off the peak memory of a big job
// for a few per cent of CPU (docs/performance.md).
const gcPercent = 50

// gcFloor is the heap goal below which the binary does not collect
// (gcfloor): a cold analyze of the 64-rank job collected 56 times, most
// under 20 MiB live, for about a fifth of its CPU; with the floor a few
// times, at the same peak RSS (its goal passes 64 MiB anyway). A job whose
// goal stays under the floor peaks at it (64 MiB of heap) instead.
const gcFloor = 64 << 20

func main() {
	if os.Getenv("GOGC") == "" {
		gcfloor.Start(gcPercent, gcFloor)
	}
	os.Exit(cli.Run(context.Background(), os.Args[1:], cli.StdEnv()))
}
