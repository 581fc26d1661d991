// Command tpptrace tells why a distributed training step is slow. Run
// `tpptrace help` for the commands.
package main

import (
	"context"
	"os"

	"github.com/tpptrace/tpptrace/cmd/internal/cli"
)

func main() {
	os.Exit(cli.Run(context.Background(), os.Args[1:], cli.StdEnv()))
}
