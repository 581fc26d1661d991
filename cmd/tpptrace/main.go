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
// (gcfloor): a cold analyze of the 64-rank job collected 50 times, most
// under 20 MiB live, for 73–95 CPU-ms of marking; with the floor 12–14
// times for 15–27 (64 MiB: 8–9 times, 13–25 ms, but 20 MB more peak RSS
// with --no-cache). A job whose heap goal stays under the floor grows to
// it (48 MiB of heap) instead; --max-memory lowers it (cli's memFlag).
const gcFloor = 48 << 20

func main() {
	if os.Getenv("GOGC") == "" {
		gcfloor.Start(gcPercent, gcFloor)
	}
	os.Exit(cli.Run(context.Background(), os.Args[1:], cli.StdEnv()))
}
