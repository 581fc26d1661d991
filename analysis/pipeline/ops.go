package pipeline

import (
	"regexp"
	"strconv"

	"github.com/tpptrace/tpptrace/ingest/model"
)

// Phase is forward or backward.
type Phase uint8

// Phases.
const (
	PhaseUnknown Phase = iota
	PhaseFwd
	PhaseBwd
)

func (p Phase) String() string { return [...]string{"", "fwd", "bwd"}[min(p, PhaseBwd)] }

// Op is one forward or backward pass of one microbatch (and model chunk) on
// one rank, on the rank's own clock. Micro and Chunk are -1 when unknown.
type Op struct {
	Phase      Phase
	Micro      int32
	Chunk      int32
	Start, End int64
}

// Source tells where a rank's ops came from.
type Source uint8

// Op sources.
const (
	FromNone        Source = iota
	FromAnnotations        // forward_step#N / backward_step#N ranges
	FromP2P                // the directions of pipeline send/recv kernels
)

// annotRe matches per-microbatch annotations: "forward_step#3",
// "backward_step#3", "fwd#3", "forward_step#3 chunk 1", "forward_step#3.1".
var annotRe = regexp.MustCompile(`(?i)(forward|backward|fwd|bwd)[a-z_ -]*#(\d+)(?:\D+(\d+))?`)

// parseAnnotation returns the phase, microbatch and chunk of an annotation
// name, or ok false.
func parseAnnotation(name string) (ph Phase, micro, chunk int32, ok bool) {
	m := annotRe.FindStringSubmatch(name)
	if m == nil {
		return PhaseUnknown, -1, -1, false
	}
	ph = PhaseFwd
	if c := m[1][0]; c == 'b' || c == 'B' {
		ph = PhaseBwd
	}
	micro, chunk = atoi(m[2]), -1
	if m[3] != "" {
		chunk = atoi(m[3])
	}
	return ph, micro, chunk, true
}

func atoi(s string) int32 {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return -1
	}
	return int32(n)
}

// annotationOps returns rank r's ops from annotations projected on the GPU
// (KindGPUAnnotation); failing those, from CPU annotations mapped to the GPU
// span of the kernels they launched (through Events.Corr).
func annotationOps(t *model.Trace, r int32) []Op {
	if ops := collectAnnotations(t, r, model.KindGPUAnnotation); len(ops) > 0 {
		return ops
	}
	return cpuToGPU(t, r, collectAnnotations(t, r, model.KindAnnotation))
}

func collectAnnotations(t *model.Trace, r int32, kind model.Kind) []Op {
	lo, hi := t.Events.RankRange(r)
	var ops []Op
	for i := lo; i < hi; i++ {
		if t.Events.Kind[i] != kind {
			continue
		}
		ph, mb, ch, ok := parseAnnotation(t.Name(i))
		if !ok {
			continue
		}
		if t.Events.Micro[i] >= 0 {
			mb = t.Events.Micro[i]
		}
		ops = append(ops, Op{Phase: ph, Micro: mb, Chunk: ch, Start: t.Events.Start[i], End: t.Events.Start[i] + t.Events.Dur[i]})
	}
	return ops
}
