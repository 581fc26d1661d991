package cli

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// TestAnalyzeThroughputFlagsReachTheJSON: --tokens-per-step 1M --params 7B
// --peak-tflops 500 give tokens/s = 1e6 / step seconds, 6·7e9 FLOPs per
// token, and MFU = tokens/s · 4.2e10 / ranks / 1e12 / 500, peak from the flag.
func TestAnalyzeThroughputFlagsReachTheJSON(t *testing.T) {
	code, stdout, stderr := execCLI(t, "analyze", "--sample", "balanced-1f1b", "--json",
		"--tokens-per-step", "1M", "--params", "7B", "--peak-tflops", "500")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r result.Result
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	tps := 1e6 / (float64(r.PeriodNs) / 1e9) // over the iteration period
	mfu := tps * 4.2e10 / float64(r.WorldSize) / 1e12 / 500
	if math.Abs(r.TokensPerS-tps) > 1e-6*tps || math.Abs(r.MFU-mfu) > 1e-9 || r.PeakFrom != "flag" || r.PeakTFLOPsPerGPU != 500 {
		t.Errorf("tokens/s %g MFU %g peak %g from %q; want %g, %g, 500 from flag", r.TokensPerS, r.MFU, r.PeakTFLOPsPerGPU, r.PeakFrom, tps, mfu)
	}
}

// TestAnalyzeThroughputFlagErrors: unusable model flags are usage errors.
func TestAnalyzeThroughputFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--params", "7B"},
		{"--tokens-per-step", "1M", "--params", "7B", "--flops-per-token", "4e10"},
		{"--tokens-per-step", "lots"},
		{"--tokens-per-step", "-5"},
	} {
		code, _, stderr := execCLI(t, append([]string{"analyze", "--sample", "balanced-1f1b"}, args...)...)
		if code != ExitUsage {
			t.Errorf("%q: exit %d, want %d: %s", args, code, ExitUsage, stderr)
		}
	}
}

// TestParseCount reads plain numbers and K/M/B/T suffixes.
func TestParseCount(t *testing.T) {
	for s, want := range map[string]float64{"1e6": 1e6, "1M": 1e6, "7B": 7e9, "70b": 70e9, "2T": 2e12, "4096": 4096, "1.5k": 1500} {
		if got, err := parseCount(s); err != nil || got != want {
			t.Errorf("parseCount(%q) = %g, %v; want %g", s, got, err, want)
		}
	}
	for _, s := range []string{"", "M", "x", "-1", "NaN", "Inf"} {
		if _, err := parseCount(s); err == nil {
			t.Errorf("parseCount(%q) accepted", s)
		}
	}
}

// TestCompareTokensPerSecondRegression: the flags apply to Result files;
// a step 100 ms → 125 ms at 1 M tokens is 10 M → 8 M tokens/s, a regression.
func TestCompareTokensPerSecondRegression(t *testing.T) {
	dir := t.TempDir()
	base, slow := stepResult(t, dir, "base.json", 100e6), stepResult(t, dir, "slow.json", 125e6)
	code, stdout, stderr := execCLI(t, "compare", "--tokens-per-step", "1M", base, slow)
	if code != ExitRegression {
		t.Fatalf("exit %d, want %d: %s%s", code, ExitRegression, stdout, stderr)
	}
	line := lineWith(stdout, "tokens/s ")
	for _, want := range []string{"10,000,000 tokens/s", "8,000,000 tokens/s", "-20.0 %", "REGRESSION"} {
		if !strings.Contains(line, want) {
			t.Errorf("tokens/s line %q lacks %q", line, want)
		}
	}
	code, stdout, _ = execCLI(t, "compare", "--tokens-per-step", "1M", slow, base)
	if code != ExitOK || !strings.Contains(lineWith(stdout, "tokens/s "), "improved") {
		t.Errorf("faster run: exit %d:\n%s", code, stdout)
	}
}

func stepResult(t *testing.T, dir, name string, stepNs int64) string {
	t.Helper()
	return writeResultFile(t, dir, name, &result.Result{SchemaVersion: result.SchemaVersion, StepNs: stepNs, WorldSize: 8, Layout: result.Layout{PP: 1}})
}

func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, sub) {
			return l
		}
	}
	return ""
}

// TestAnalyzeByRankFlag: --by-rank takes auto, on and off, and each gives
// the same Result of a dataset; anything else is a usage error.
func TestAnalyzeByRankFlag(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	if code, _, stderr := execCLI(t, "ingest", filepath.Join("..", "..", "..", "samples", "default"), "-o", dir); code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	var want string
	for _, mode := range []string{"auto", "on", "off"} {
		code, out, stderr := execCLI(t, "analyze", "--json", "--by-rank", mode, dir)
		if code != 0 {
			t.Fatalf("--by-rank %s: exit %d: %s", mode, code, stderr)
		}
		if want == "" {
			want = out
		} else if out != want {
			t.Errorf("--by-rank %s: the Result differs from --by-rank auto's", mode)
		}
	}
	if code, _, stderr := execCLI(t, "analyze", "--by-rank", "sometimes", dir); code != ExitUsage || !strings.Contains(stderr, "auto, on or off") {
		t.Errorf("--by-rank sometimes: exit %d, want %d: %s", code, ExitUsage, stderr)
	}
}
