package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	rpt "github.com/tpptrace/tpptrace/report"
)

func testEnv() (*Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}, &out, &errb
}

func writeResult(t *testing.T, dir, name string, bubble float64) string {
	t.Helper()
	return writeResultFile(t, dir, name, &result.Result{SchemaVersion: result.SchemaVersion, StepNs: 100e6, Layout: result.Layout{PP: 2},
		Stages: []result.StageStats{{Stage: 0, ComputeNs: 70e6, BubbleFraction: bubble, BubbleNs: int64(bubble * 100e6)},
			{Stage: 1, ComputeNs: 72e6, BubbleFraction: 0.1, BubbleNs: 10e6}}})
}

// writeResultFile writes res as a Result JSON file in dir and returns its path.
func writeResultFile(t *testing.T, dir, name string, res *result.Result) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := rpt.JSON(f, res); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCompareExit3OnBubbleGrowth(t *testing.T) {
	dir := t.TempDir()
	base, grown, same := writeResult(t, dir, "base.json", 0.20), writeResult(t, dir, "new.json", 0.25), writeResult(t, dir, "same.json", 0.205)
	env, out, _ := testEnv()
	if code := Run(context.Background(), []string{"compare", "--threshold", "5%", base, grown}, env); code != ExitRegression {
		t.Fatalf("exit %d, want 3; output:\n%s", code, out)
	}
	if !strings.Contains(out.String(), "stage 0 bubble") || !strings.Contains(out.String(), "REGRESSION") {
		t.Fatalf("no bubble regression in:\n%s", out)
	}
	env, out, _ = testEnv()
	if code := Run(context.Background(), []string{"compare", base, same}, env); code != ExitOK {
		t.Fatalf("2.5 %% growth: exit %d, want 0:\n%s", code, out)
	}
}

// TestFailOnTypoIsAUsageError: a typo'd --fail-on kind or threshold exits
// 2 listing the kinds, before anything is read.
func TestFailOnTypoIsAUsageError(t *testing.T) {
	for _, bad := range []string{"nosuch:5ms", "buble:1%", "bubble:5"} {
		code, _, stderr := runCLI(t, "analyze", "--fail-on", bad, "no-such-dir")
		if code != ExitUsage || !strings.Contains(stderr, "exposed_tp_comm (tp)") && !strings.Contains(stderr, "bad threshold") {
			t.Errorf("--fail-on %s: exit %d, want 2 with the kinds listed:\n%s", bad, code, stderr)
		}
	}
}
