package pipeline

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/model"
)

// Phase is forward or backward.
type Phase uint8

// Phases. PhaseW is the weight-gradient half of a backward that a
// zero-bubble schedule runs apart (PP:<s>W<mb>); PhaseBwd covers a whole
// backward or its input-gradient half (PP:<s>I<mb>).
const (
	PhaseUnknown Phase = iota
	PhaseFwd
	PhaseBwd
	PhaseW
)

func (p Phase) String() string { return [...]string{"", "fwd", "bwd", "wgrad"}[min(p, PhaseW)] }

// backward reports whether p is part of a backward pass.
func (p Phase) backward() bool { return p == PhaseBwd || p == PhaseW }

// Op is one forward or backward pass of one microbatch (and model chunk) on
// one rank, on the rank's own clock. Micro and Chunk are -1 when unknown.
type Op struct {
	Phase      Phase
	Micro      int32
	Chunk      int32
	Start, End int64
}

// Source tells where a rank's ops came from: the cue, in order of trust.
type Source uint8

// Op sources.
const (
	FromNone        Source = iota
	FromAnnotations        // per-microbatch ranges: forward_step#N, PP:<s>F<mb>, Forward i (Rank.Convention says which)
	FromAutograd           // the autograd context of each kernel's launch; passes split at PP transfers
	FromP2P                // the directions of pipeline send/recv kernels
)

// String is the cue's name in the Result (phase_source).
func (s Source) String() string {
	return [...]string{"", "annotations", "autograd", "pp-p2p"}[min(s, FromP2P)]
}

// annotRe matches per-microbatch annotations: "forward_step#3",
// "backward_step#3", "fwd#3", "forward_step#3 chunk 1", "forward_step#3.1".
var annotRe = regexp.MustCompile(`(?i)(forward|backward|fwd|bwd)[a-z_ -]*#(\d+)(?:\D+(\d+))?`)

// Annotation conventions (../shared/reference/dialects.md).
const (
	ConvStep       = "forward_step#N"         // forward_step#3, backward_step#3.chunk1
	ConvPipelining = "PP:<s><F|B|I|W><mb>"    // torch.distributed.pipelining multi-stage runtime
	ConvForward    = "Forward i / Backward i" // torch.distributed.pipelining single-stage schedules
)

// ppRe matches torch.distributed.pipelining's action ranges (PP:0F3,
// PP:5B2, PP:1I0, PP:1W0); the SEND_F / RECV_B actions do not match.
var ppRe = regexp.MustCompile(`^PP:(\d+)([FBIW])(\d+)$`)

// singleRe matches the single-stage schedules' ranges (Forward 3, Backward 3).
var singleRe = regexp.MustCompile(`^(Forward|Backward) (\d+)$`)

// annotation is one parsed per-microbatch range: stage is the pipelining
// stage index (-1 outside PP: ranges), mapped to a chunk per rank later.
type annotation struct {
	conv  string
	ph    Phase
	micro int32
	chunk int32
	stage int32
}

// parseAny parses name in every convention, or ok false.
func parseAny(name string) (a annotation, ok bool) {
	// Each pattern needs a literal the name must hold (ppRe "PP:", singleRe
	// "Forward " or "Backward ", annotRe '#'): most names (aten::mm, ...)
	// hold none, and are answered without running a regexp.
	if strings.HasPrefix(name, "PP:") {
		if m := ppRe.FindStringSubmatch(name); m != nil {
			ph := map[string]Phase{"F": PhaseFwd, "B": PhaseBwd, "I": PhaseBwd, "W": PhaseW}[m[2]]
			return annotation{ConvPipelining, ph, atoi(m[3]), -1, atoi(m[1])}, true
		}
	}
	if strings.HasPrefix(name, "Forward ") || strings.HasPrefix(name, "Backward ") {
		if m := singleRe.FindStringSubmatch(name); m != nil {
			ph := PhaseFwd
			if m[1] == "Backward" {
				ph = PhaseBwd
			}
			return annotation{ConvForward, ph, atoi(m[2]), -1, -1}, true
		}
	}
	if strings.IndexByte(name, '#') < 0 {
		return annotation{ConvStep, PhaseUnknown, -1, -1, -1}, false
	}
	ph, mb, ch, ok := parseAnnotation(name)
	return annotation{ConvStep, ph, mb, ch, -1}, ok
}

// parseAnnotation returns the phase, microbatch and chunk of an annotation
// in tpptrace's forward_step#N convention, or ok false.
func parseAnnotation(name string) (ph Phase, micro, chunk int32, ok bool) {
	m, ascii := matchAnnot(name)
	if !ascii {
		m = annotRe.FindStringSubmatch(name)
	}
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

// matchAnnot is annotRe.FindStringSubmatch(name) for an ASCII name, without
// the regexp (ascii false, m nil: name holds other bytes, whose case folding
// the regexp knows; ask it).
func matchAnnot(name string) (m []string, ascii bool) {
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return nil, false
		}
	}
	for p := 0; p < len(name); p++ {
		if m := matchAnnotAt(name, p); m != nil {
			return m, true
		}
	}
	return nil, true
}

// annotWords are annotRe's alternatives, in its order.
var annotWords = [...]string{"forward", "backward", "fwd", "bwd"}

// matchAnnotAt is annotRe's match starting at p, or nil.
func matchAnnotAt(name string, p int) []string {
	w := ""
	for _, a := range annotWords {
		if len(name)-p >= len(a) && strings.EqualFold(name[p:p+len(a)], a) {
			w = name[p : p+len(a)]
			break
		}
	}
	if w == "" {
		return nil
	}
	i := p + len(w)
	for i < len(name) && annotFill(name[i]) {
		i++
	}
	if i >= len(name) || name[i] != '#' {
		return nil
	}
	d := digitsAt(name, i+1)
	if d == i+1 {
		return nil
	}
	m := []string{"", w, name[i+1 : d], ""}
	j := d
	for j < len(name) && !isDigit(name[j]) {
		j++
	}
	if j > d && j < len(name) {
		e := digitsAt(name, j)
		m[3], d = name[j:e], e
	}
	m[0] = name[p:d]
	return m
}

// annotFill reports whether c is in annotRe's [a-z_ -] (case-insensitive).
func annotFill(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == ' ' || c == '-'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digitsAt is the end of the run of digits starting at i.
func digitsAt(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
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
// span of the kernels launched while they were open (through Events.Corr;
// by time on the rank, not by thread: backward runs on the autograd
// thread, outside the range's). conv names the convention.
func annotationOps(t *model.Trace, r int32) (ops []Op, conv string) {
	if ops, conv := collectAnnotations(t, r, model.KindGPUAnnotation); len(ops) > 0 {
		return ops, conv
	}
	ops, conv = collectAnnotations(t, r, model.KindAnnotation)
	return cpuToGPU(t, r, ops), conv
}

// parsedName is parseAny's answer for one name.
type parsedName struct {
	a  annotation
	ok bool
}

func collectAnnotations(t *model.Trace, r int32, kind model.Kind) ([]Op, string) {
	lo, hi := t.Events.RankRange(r)
	var ops []Op
	var stages []int32
	conv := ""
	parsed := map[int32]parsedName{} // annotation names recur every step: match each once
	for i := lo; i < hi; i++ {
		if t.Events.Kind[i] != kind {
			continue
		}
		p, seen := parsed[t.Events.Name[i]]
		if !seen {
			p.a, p.ok = parseAny(t.Name(i))
			parsed[t.Events.Name[i]] = p
		}
		a, ok := p.a, p.ok
		if !ok || conv != "" && a.conv != conv {
			continue
		}
		conv = a.conv
		if t.Events.Micro[i] >= 0 {
			a.micro = t.Events.Micro[i]
		}
		ops = append(ops, Op{Phase: a.ph, Micro: a.micro, Chunk: a.chunk, Start: t.Events.Start[i], End: t.Events.Start[i] + t.Events.Dur[i]})
		stages = append(stages, a.stage)
	}
	chunksFromStages(ops, stages)
	return ops, conv
}

// chunksFromStages numbers the distinct pipelining stage indices a rank
// runs (stage s and s+p of a looped schedule, s and 2p−1−s of a V shape) as
// its model chunks 0, 1, …; one stage index means no chunks.
func chunksFromStages(ops []Op, stages []int32) {
	ids := slices.Compact(slices.Sorted(slices.Values(stages)))
	if len(ids) < 2 || ids[0] < 0 {
		return
	}
	for k := range ops {
		ops[k].Chunk = int32(slices.Index(ids, stages[k]))
	}
}
