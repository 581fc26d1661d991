package cli

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/tpptrace/tpptrace"
)

// Version is set at link time (-ldflags "-X .../cli.Version=v1.2.3"); else the module version.
var Version = ""

// ToolVersion is "tpptrace <version>", as recorded in manifests and results.
func ToolVersion() string {
	if Version != "" {
		return "tpptrace " + Version
	}
	return tpptrace.ToolVersion()
}

var versionCmd = &Command{
	Name:    "version",
	Summary: "print the version, with the module version and VCS revision of the build",
	Usage:   "tpptrace version",
	Long: `Prints the tool version, as recorded in datasets and results, then what the
build info holds: the module version, the VCS revision and its time (with
"modified" when the tree had changes), and the Go version. A module build
('go install module@v1.2.3') has the module version; a build from a
checkout the revision ('go build' records it unless -buildvcs=false).`,
}

func init() { versionCmd.Run = runVersion }

func runVersion(ctx context.Context, env *Env, args []string) error {
	if err := parse(newFlags(env, versionCmd), args); err != nil {
		return err
	}
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintln(env.Stdout, versionLine(ToolVersion(), bi))
	return nil
}

// versionLine is "tpptrace v1.2.3 (module v1.2.3, revision 0123abcd,
// 2026-01-02T03:04:05Z, modified, go1.26)": the tool version and what bi
// records, each part only when known.
func versionLine(tool string, bi *debug.BuildInfo) string {
	if bi == nil {
		return tool
	}
	var parts []string
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		parts = append(parts, "module "+v)
	}
	set := map[string]string{}
	for _, s := range bi.Settings {
		set[s.Key] = s.Value
	}
	if r := set["vcs.revision"]; r != "" {
		parts = append(parts, "revision "+r[:min(len(r), 12)])
	}
	if t := set["vcs.time"]; t != "" {
		parts = append(parts, t)
	}
	if set["vcs.modified"] == "true" {
		parts = append(parts, "modified")
	}
	if bi.GoVersion != "" {
		parts = append(parts, bi.GoVersion)
	}
	if len(parts) == 0 {
		return tool
	}
	return tool + " (" + strings.Join(parts, ", ") + ")"
}
