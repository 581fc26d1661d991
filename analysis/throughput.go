package analysis

import (
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
)

// Model is what the user says about the trained model, which a trace does
// not know: the figures behind tokens/s and MFU (seed §6.9). The zero value
// asks for neither.
type Model struct {
	TokensPerStep float64 // global batch tokens per step (--tokens-per-step)
	FLOPsPerToken float64 // training FLOPs per token (--flops-per-token); 0: 6·Params
	Params        float64 // parameters (--params), for the 6·P approximation
	PeakTFLOPs    float64 // per-GPU peak, 10¹² FLOP/s (--peak-tflops); 0: from the GPU name
}

// flopsPerToken is FLOPsPerToken, else 6·Params: forward (2·P) plus
// backward (4·P) of a dense transformer, attention's own FLOPs left out.
func (m Model) flopsPerToken() float64 {
	if m.FLOPsPerToken > 0 {
		return m.FLOPsPerToken
	}
	return 6 * m.Params
}

// peakTable is NVIDIA's dense (no sparsity) bf16 tensor-core peak per GPU,
// in TFLOP/s, matched by the first key the lower-cased GPU name contains;
// more specific keys come first.
var peakTable = []struct {
	key   string
	tflop float64
}{
	{"h100 pcie", 756}, {"h100 nvl", 835}, {"h100", 989}, {"h200", 989}, {"gh200", 989},
	{"b200", 2250}, {"a100", 312}, {"l40s", 362},
}

// PeakTFLOPs is the dense bf16 peak of the GPU named name ("NVIDIA H100
// 80GB HBM3"), and false when the table does not know it.
func PeakTFLOPs(name string) (float64, bool) {
	n := strings.Join(strings.Fields(strings.ToLower(name)), " ")
	for _, e := range peakTable {
		if strings.Contains(n, e.key) {
			return e.tflop, true
		}
	}
	return 0, false
}

// Throughput sets res's tokens/s from m's tokens per step and res's step
// time and, when m gives the model FLOPs, the achieved TFLOP/s per GPU
// (over res.WorldSize GPUs) and MFU against m's peak or, without one, the
// table's peak for res.GPUName (an unknown GPU leaves MFU out, with a
// warning). It first clears figures an earlier call set, so that a Result
// read from a file takes the flags given now; without tokens per step it
// changes nothing.
func Throughput(res *result.Result, m Model) {
	if m.TokensPerStep <= 0 {
		return
	}
	res.TokensPerS, res.ModelTFLOPsPerGPU, res.MFU, res.PeakTFLOPsPerGPU, res.PeakFrom = 0, 0, 0, 0, ""
	step := res.PeriodNs // the iteration period; a Result without one: the span
	if step <= 0 {
		step = res.StepNs
	}
	if step <= 0 {
		res.Warnings = append(res.Warnings, "no step time: tokens/s and MFU are not known")
		return
	}
	res.TokensPerS = m.TokensPerStep / (float64(step) / 1e9)
	f := m.flopsPerToken()
	if f <= 0 || res.WorldSize <= 0 {
		return
	}
	res.ModelTFLOPsPerGPU = res.TokensPerS * f / float64(res.WorldSize) / 1e12
	mfu(res, m.PeakTFLOPs)
}

// mfu sets the peak, its origin and MFU, or warns why MFU is left out.
func mfu(res *result.Result, flagPeak float64) {
	peak, from := flagPeak, "flag"
	if peak <= 0 {
		var ok bool
		if peak, ok = PeakTFLOPs(res.GPUName); !ok {
			res.Warnings = append(res.Warnings, fmt.Sprintf("MFU left out: no peak TFLOP/s known for GPU %q; give --peak-tflops", res.GPUName))
			return
		}
		from = "gpu-table"
	}
	res.PeakTFLOPsPerGPU, res.PeakFrom = peak, from
	res.MFU = res.ModelTFLOPsPerGPU / peak
	if res.MFU > 1 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("MFU %.2f is above 1: check --tokens-per-step, the model FLOPs and the peak", res.MFU))
	}
}

// gpuName is the first GPU name the trace's ranks give, "" when none does.
func gpuName(t *model.Trace) string {
	for _, r := range t.Ranks {
		if r.GPUName != "" {
			return r.GPUName
		}
	}
	return ""
}
