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
		Stages: []result.StageStats{{Stage: 0, ComputeNs: 70e6, BubbleFraction: bubble}, {Stage: 1, ComputeNs: 72e6, BubbleFraction: 0.1}}})
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

func TestAnalyzeGateParsing(t *testing.T) {
	g, err := parseGate("bubble:20%")
	if err != nil || g.kind != result.KindBubble || g.share != 0.2 {
		t.Fatalf("parseGate = %+v, %v", g, err)
	}
	res := &result.Result{Findings: []result.Finding{{Kind: result.KindBubble, CostNs: 30e6, CostShare: 0.3}}}
	if err := checkGates(res, []gate{g}); err == nil {
		t.Fatal("30 % bubble passed a 20 % gate")
	}
	g, _ = parseGate("exposed_dp_comm:5ms")
	if g.ns != 5e6 || checkGates(res, []gate{g}) != nil {
		t.Fatalf("dp gate %+v tripped on a bubble finding", g)
	}
}
