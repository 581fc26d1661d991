package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLineReadsTheBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/tpptrace/tpptrace", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	want := "tpptrace v1.2.3 (module v1.2.3, revision 0123456789ab, 2026-01-02T03:04:05Z, modified, go1.26.0)"
	if got := versionLine("tpptrace v1.2.3", bi); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := versionLine("tpptrace devel", nil); got != "tpptrace devel" {
		t.Errorf("no build info: %q", got)
	}
}

func TestVersionCommandPrintsTheGoVersion(t *testing.T) {
	code, out, _ := execCLI(t, "version")
	bi, ok := debug.ReadBuildInfo()
	if code != ExitOK || !strings.HasPrefix(out, "tpptrace ") || ok && !strings.Contains(out, bi.GoVersion) {
		t.Errorf("exit %d %q", code, out)
	}
}

// TestBareCommandIsAUsageError: no command prints the usage to stderr and
// exits 2; 'help' still exits 0.
func TestBareCommandIsAUsageError(t *testing.T) {
	code, out, errs := execCLI(t)
	if code != ExitUsage || out != "" || !strings.Contains(errs, "usage: tpptrace <command>") {
		t.Errorf("bare tpptrace: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, out, _ := execCLI(t, "help"); code != ExitOK || !strings.Contains(out, "commands:") {
		t.Errorf("help: exit %d", code)
	}
}

func TestVersionLineOfADevelBuild(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}
	if got := versionLine("tpptrace devel", bi); got != "tpptrace devel (revision abc, go1.26.0)" {
		t.Errorf("got %q", got)
	}
}
