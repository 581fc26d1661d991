package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func execCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code = Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

func TestSampleWithoutDriverExitsClearly(t *testing.T) {
	if _, err := os.Stat("/dev/nvidiactl"); err == nil {
		t.Skip("this machine has an NVIDIA driver")
	}
	out := filepath.Join(t.TempDir(), "s.parquet")
	code, _, stderr := execCLI(t, "sample", "--duration", "1s", "-o", out)
	if code != ExitNoDevice {
		t.Fatalf("exit code %d, want %d (stderr %q)", code, ExitNoDevice, stderr)
	}
	if !strings.Contains(stderr, "NVML") || !strings.Contains(stderr, "driver") && !strings.Contains(stderr, "cgo") {
		t.Fatalf("message should say NVML is missing and why: %q", stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("no output file should be created, stat err %v", err)
	}
}

func TestSampleNeedsOutput(t *testing.T) {
	code, _, stderr := execCLI(t, "sample")
	if code != ExitUsage || !strings.Contains(stderr, "usage: tpptrace sample") {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	code, stdout, _ := execCLI(t, "help")
	if code != ExitOK {
		t.Fatalf("help exit %d", code)
	}
	for _, c := range Commands() {
		if !strings.Contains(stdout, "  "+c.Name+" ") {
			t.Errorf("help does not list %q", c.Name)
		}
	}
}

func TestUnknownCommandIsUsageError(t *testing.T) {
	if code, _, _ := execCLI(t, "frobnicate"); code != ExitUsage {
		t.Fatalf("exit %d, want %d", code, ExitUsage)
	}
}

func TestFailOnGateExits3(t *testing.T) {
	code, _, stderr := execCLI(t, "analyze", "--sample", "balanced-1f1b", "--fail-on", "bubble:5%")
	if code != ExitRegression || !strings.Contains(stderr, "gate pipeline_bubble failed") {
		t.Fatalf("exit %d, stderr %q; want 3 naming the bubble gate", code, stderr)
	}
	code, _, stderr = execCLI(t, "analyze", "--sample", "balanced-1f1b", "--fail-on", "bubble:95%")
	if code != ExitOK {
		t.Fatalf("a gate above the measured bubble must pass: exit %d, %s", code, stderr)
	}
	if code, _, _ := execCLI(t, "analyze", "--sample", "balanced-1f1b", "--fail-on", "bubble:lots"); code != ExitUsage {
		t.Fatalf("a bad threshold is a usage error, got %d", code)
	}
}
