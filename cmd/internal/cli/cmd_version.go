package cli

import (
	"context"
	"fmt"
	"runtime/debug"
)

// Version is set at link time (-ldflags "-X .../cli.Version=v1.2.3"); else the module version.
var Version = ""

// ToolVersion is "tpptrace <version>", as recorded in manifests and results.
func ToolVersion() string {
	if Version != "" {
		return "tpptrace " + Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return "tpptrace " + bi.Main.Version
	}
	return "tpptrace devel"
}

var versionCmd = &Command{
	Name:    "version",
	Summary: "print the version",
	Usage:   "tpptrace version",
	Long:    "Prints the tool version, as recorded in datasets and results.",
}

func init() { versionCmd.Run = runVersion }

func runVersion(ctx context.Context, env *Env, args []string) error {
	if err := parse(newFlags(env, versionCmd), args); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, ToolVersion())
	return nil
}
