package analysis

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/samples"
)

// near tells whether got is within a relative 1e-9 of want.
func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Abs(want) }

// TestThroughputArithmetic: a 100 ms step of 1 M tokens is 10 M tokens/s.
// A 7 B dense model does F = 6·7e9 = 4.2e10 FLOPs per token, so 16 H100s
// achieve 1e7·4.2e10/16 = 2.625e16 FLOP/s = 26 250 TFLOP/s each: MFU =
// 26250/989 = 26.54, impossible, which the Result warns about. At a 10 s
// step the same job runs 1e5 tokens/s, 262.5 TFLOP/s per GPU, MFU =
// 262.5/989 = 0.26542.
func TestThroughputArithmetic(t *testing.T) {
	m := Model{TokensPerStep: 1e6, Params: 7e9}
	res := &result.Result{StepNs: 100e6, WorldSize: 16, GPUName: "NVIDIA H100 80GB HBM3"}
	Throughput(res, m)
	if !near(res.TokensPerS, 1e7) || !near(res.ModelTFLOPsPerGPU, 26250) || !near(res.MFU, 26250.0/989) {
		t.Fatalf("tokens/s %g, TFLOP/s %g, MFU %g; want 1e7, 26250, %g", res.TokensPerS, res.ModelTFLOPsPerGPU, res.MFU, 26250.0/989)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "above 1") {
		t.Errorf("warnings %q, want one about MFU above 1", res.Warnings)
	}
	res = &result.Result{StepNs: 10e9, WorldSize: 16, GPUName: "NVIDIA H100 80GB HBM3"}
	Throughput(res, m)
	if !near(res.TokensPerS, 1e5) || !near(res.ModelTFLOPsPerGPU, 262.5) || !near(res.MFU, 262.5/989) {
		t.Fatalf("tokens/s %g, TFLOP/s %g, MFU %g; want 1e5, 262.5, 0.26542", res.TokensPerS, res.ModelTFLOPsPerGPU, res.MFU)
	}
	if res.PeakTFLOPsPerGPU != 989 || res.PeakFrom != "gpu-table" || len(res.Warnings) != 0 {
		t.Errorf("peak %g from %q, warnings %q; want 989 from gpu-table, none", res.PeakTFLOPsPerGPU, res.PeakFrom, res.Warnings)
	}
}

// TestThroughputFlagsWin: --flops-per-token beats 6·P and --peak-tflops
// beats the table; a second call with other flags replaces the figures.
func TestThroughputFlagsWin(t *testing.T) {
	res := &result.Result{StepNs: 1e9, WorldSize: 4, GPUName: "NVIDIA A100-SXM4-80GB"}
	Throughput(res, Model{TokensPerStep: 4e5, FLOPsPerToken: 1e9, Params: 7e9, PeakTFLOPs: 500})
	// 4e5 tokens/s · 1e9 FLOPs / 4 GPUs = 1e14 FLOP/s = 100 TFLOP/s; /500 = 0.2.
	if !near(res.ModelTFLOPsPerGPU, 100) || !near(res.MFU, 0.2) || res.PeakFrom != "flag" {
		t.Fatalf("TFLOP/s %g, MFU %g, from %q; want 100, 0.2, flag", res.ModelTFLOPsPerGPU, res.MFU, res.PeakFrom)
	}
	Throughput(res, Model{TokensPerStep: 4e5, FLOPsPerToken: 1e9})
	if !near(res.MFU, 100.0/312) || res.PeakFrom != "gpu-table" {
		t.Errorf("MFU %g from %q; want %g from gpu-table", res.MFU, res.PeakFrom, 100.0/312)
	}
}

// TestThroughputPartial: tokens without a model give tokens/s only; no
// tokens change nothing.
func TestThroughputPartial(t *testing.T) {
	res := &result.Result{StepNs: 2e9, WorldSize: 8, GPUName: "NVIDIA H100 80GB HBM3"}
	Throughput(res, Model{})
	if res.TokensPerS != 0 || res.PeakFrom != "" {
		t.Fatalf("zero Model set figures: %+v", res)
	}
	Throughput(res, Model{TokensPerStep: 1e6})
	if !near(res.TokensPerS, 5e5) || res.ModelTFLOPsPerGPU != 0 || res.MFU != 0 || res.PeakTFLOPsPerGPU != 0 {
		t.Errorf("tokens/s %g TFLOP/s %g MFU %g peak %g; want 5e5 and no FLOPs figures", res.TokensPerS, res.ModelTFLOPsPerGPU, res.MFU, res.PeakTFLOPsPerGPU)
	}
}

// TestThroughputUnknownGPU: no peak for the GPU leaves MFU out with a note
// but keeps the achieved TFLOP/s.
func TestThroughputUnknownGPU(t *testing.T) {
	for _, name := range []string{"Tesla V100-SXM2-32GB", ""} {
		res := &result.Result{StepNs: 1e9, WorldSize: 2, GPUName: name}
		Throughput(res, Model{TokensPerStep: 1e4, Params: 1e9})
		if res.MFU != 0 || res.PeakFrom != "" || !near(res.ModelTFLOPsPerGPU, 30) {
			t.Errorf("%q: MFU %g from %q, TFLOP/s %g; want none, 30", name, res.MFU, res.PeakFrom, res.ModelTFLOPsPerGPU)
		}
		if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "--peak-tflops") {
			t.Errorf("%q: warnings %q, want one naming --peak-tflops", name, res.Warnings)
		}
	}
}

// TestPeakTFLOPs looks GPU names up in their vendor spellings.
func TestPeakTFLOPs(t *testing.T) {
	for name, want := range map[string]float64{
		"NVIDIA H100 80GB HBM3": 989, "nvidia h100 sxm5": 989, "NVIDIA H100 PCIe": 756, "NVIDIA  H100  PCIe": 756,
		"NVIDIA H200": 989, "NVIDIA A100-SXM4-80GB": 312, "A100-PCIE-40GB": 312, "NVIDIA B200": 2250,
		"NVIDIA L40S": 362, "NVIDIA H100 NVL": 835,
	} {
		if got, ok := PeakTFLOPs(name); !ok || got != want {
			t.Errorf("PeakTFLOPs(%q) = %g, %v; want %g", name, got, ok, want)
		}
	}
	for _, name := range []string{"Tesla V100-SXM2-32GB", "NVIDIA L40", "", "AMD Instinct MI300X"} {
		if got, ok := PeakTFLOPs(name); ok {
			t.Errorf("PeakTFLOPs(%q) = %g, want unknown", name, got)
		}
	}
}

// TestAnalyzeThroughput: Analyze takes the GPU name from the trace and
// fills the figures from Options.Model at the measured iteration period.
func TestAnalyzeThroughput(t *testing.T) {
	cfg, err := samples.Lookup("default")
	if err != nil {
		t.Fatal(err)
	}
	job, err := samples.Simulate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Analyze(context.Background(), job.Trace, Options{Model: Model{TokensPerStep: 5e5, Params: 1e9}})
	if err != nil {
		t.Fatal(err)
	}
	want := 5e5 / (float64(res.PeriodNs) / 1e9) // over the iteration period
	if res.GPUName != cfg.GPUName || !near(res.TokensPerS, want) || !near(res.MFU, res.ModelTFLOPsPerGPU/989) {
		t.Errorf("gpu %q tokens/s %g MFU %g; want %q, %g, %g", res.GPUName, res.TokensPerS, res.MFU, cfg.GPUName, want, res.ModelTFLOPsPerGPU/989)
	}
}

// TestThroughputUsesThePeriod: tokens/s is over the iteration period, not
// the span that the ranks' skew lengthens.
func TestThroughputUsesThePeriod(t *testing.T) {
	res := &result.Result{StepNs: 100e6, PeriodNs: 80e6, WorldSize: 16}
	Throughput(res, Model{TokensPerStep: 1e6})
	if res.TokensPerS != 1.25e7 {
		t.Errorf("tokens/s %g, want 1.25e7 (1 M tokens per 80 ms)", res.TokensPerS)
	}
}
