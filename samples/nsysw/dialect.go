package nsysw

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tpptrace/tpptrace/samples"
)

// Dialect is what a report's NVTX side looks like.
type Dialect string

const (
	// DialectProfiler writes every annotation and CPU operator of the job
	// as an NVTX range under its own name (ProfilerStep#N, forward_step#N,
	// nccl:all_reduce, aten::mm ...), and one ncclCommInitRank per
	// communicator.
	DialectProfiler Dialect = ""
	// DialectReal writes what `nsys profile -t cuda,nvtx` records of a
	// framework's training job (../shared/reference/dialects.md): NCCL's own
	// ranges with their payloads (communicator hashes, sizes, peers),
	// communicator creation as one ncclCommInitRankConfig of the world
	// communicator and one ncclCommSplit (parent, Color, Key) per other
	// communicator, and the framework's step ranges (Options.StepName). No
	// PyTorch operator, profiler or phase ranges, so nothing names a
	// process group, a phase or a microbatch.
	DialectReal Dialect = "real"
)

// profilerStep is the generator's step annotation; group 1 is the number.
var profilerStep = regexp.MustCompile(`^` + strings.ReplaceAll(regexp.QuoteMeta(samples.StepFmt), "%d", `(\d+)`) + `$`)

// rangeName is the NVTX range name an annotation or CPU operator gets in
// the report, and whether it is written at all.
func (w *writer) rangeName(name string) (string, bool) {
	if w.opts.Dialect != DialectReal {
		return name, true
	}
	m := profilerStep.FindStringSubmatch(name)
	if m == nil || w.opts.NoStepRanges {
		return "", false
	}
	n, _ := strconv.Atoi(m[1])
	return stepName(w.opts.StepName, n), true
}

// stepName formats step n's range name.
func stepName(format string, n int) string {
	if format == "" {
		format = "train_step %d"
	}
	if !strings.Contains(format, "%") {
		return format
	}
	return fmt.Sprintf(format, n)
}
