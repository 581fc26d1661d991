package samples

import (
	"fmt"
	"strings"
)

// Dialects: how the profiler of a real job records the same work
// (../shared/reference/dialects.md, docs/generator.md). The simulation and
// its truth are the same in every dialect; only the CPU side the traces
// carry differs.
const (
	// DialectTpptrace annotates every pass forward_step#N / backward_step#N
	// (tpptrace's own convention; the zero value).
	DialectTpptrace = ""
	// DialectMegatron is Megatron-LM's eager PyTorch: no per-microbatch
	// annotations, backward launched from the autograd engine's thread under
	// autograd::engine::evaluate_function ops, PP transfers batched
	// (nccl:coalesced, SendRecv kernels without metadata).
	DialectMegatron = "megatron"
	// DialectPipelining is torch.distributed.pipelining (torchtitan):
	// PP:<stage><F|B><mb> ranges for multi-stage (interleaved) schedules,
	// Forward i / Backward i for single-stage ones; backward launched from
	// the autograd thread, outside the range's thread; batched p2p.
	DialectPipelining = "pipelining"
	// DialectKernelOnly is a capture with activities=[CUDA]: no CPU events at
	// all, only the GPU's kernels, copies and memsets.
	DialectKernelOnly = "kernel-only"
)

// Dialects lists every dialect the generator writes, for tests and help.
var Dialects = []string{DialectTpptrace, DialectMegatron, DialectPipelining, DialectKernelOnly}

// DialectName is d as users write it ("tpptrace" for the default).
func DialectName(d string) string {
	if d == DialectTpptrace {
		return "tpptrace"
	}
	return d
}

// ParseDialect accepts a dialect name ("tpptrace" or "" for the default).
func ParseDialect(s string) (string, error) {
	for _, d := range Dialects {
		if s == d || s == DialectName(d) {
			return d, nil
		}
	}
	names := make([]string, len(Dialects))
	for i, d := range Dialects {
		names[i] = DialectName(d)
	}
	return "", fmt.Errorf("unknown dialect %q (want %s)", s, strings.Join(names, ", "))
}

// coalescedP2P reports whether PP send/recv kernels are batched p2p
// without metadata.
func (c *Config) coalescedP2P() bool {
	return !c.P2PMetadata || c.Dialect != DialectTpptrace
}

// cpuSide reports whether the traces carry CPU events.
func (c *Config) cpuSide() bool { return c.Dialect != DialectKernelOnly }

// autogradThread reports whether backward work is launched from the
// autograd engine's thread.
func (c *Config) autogradThread() bool {
	return c.Dialect == DialectMegatron || c.Dialect == DialectPipelining
}

// passName is the annotation of a forward or backward pass of microbatch
// mb (model chunk ch, -1 without chunks) on stage s in the dialect; "" when
// the dialect annotates no passes.
func (c *Config) passName(fwd bool, mb, ch int32, s int) string {
	switch c.Dialect {
	case DialectTpptrace:
		return tpptracePassName(fwd, mb, ch)
	case DialectPipelining:
		if c.chunks() > 1 {
			return fmt.Sprintf("PP:%d%s%d", int(max(ch, 0))*c.PP+s, map[bool]string{true: "F", false: "B"}[fwd], mb)
		}
		return fmt.Sprintf("%s %d", map[bool]string{true: "Forward", false: "Backward"}[fwd], mb)
	}
	return ""
}

func tpptracePassName(fwd bool, mb, ch int32) string {
	switch {
	case fwd && ch >= 0:
		return fmt.Sprintf(ForwardChunkFmt, mb, ch)
	case ch >= 0:
		return fmt.Sprintf(BackwardChunkFmt, mb, ch)
	case fwd:
		return fmt.Sprintf(ForwardFmt, mb)
	}
	return fmt.Sprintf(BackwardFmt, mb)
}

// autogradNode is the autograd node whose evaluate_function launches the
// backward of cpu op name ("aten::mm" → "MmBackward0").
func autogradNode(op string) string {
	op = strings.TrimPrefix(op, "aten::")
	op = strings.TrimSuffix(strings.TrimSuffix(op, "_backward"), "Backward")
	var b strings.Builder
	up := true
	for _, r := range op {
		if r == '_' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		b.WriteRune(r)
		up = false
	}
	return b.String() + "Backward0"
}
