// Package nsysw writes a simulated job as Nsight Systems SQLite exports,
// with the schema of a real nsys 2025.1 export (tables created only when
// they have rows, as nsys does): one report per rank, or one per node
// holding one process per rank.
//
// GPU events become CUPTI kernel/memcpy/memset rows; every kernel gets a
// CUDA launch call (the model's runtime event of the same correlation id,
// or a synthesized one) and every NCCL kernel an NCCL NVTX range around
// its launch with the payload NCCL >= 2.25 records (communicator id,
// message size, peer). Communicators get ncclCommInitRank ranges.
// Annotations and CPU operators become NVTX push/pop ranges. DialectReal
// writes instead what plain nsys records of a framework's job: NCCL's
// ranges, ncclCommInitRankConfig + ncclCommSplit, and step ranges named
// like "train_step N" (dialect.go). A report's
// session starts 1 ms before its first event; its utcEpochNs is the rank's
// ClockBase plus that start, so session start + event time is the model's
// wall clock (ClockBase + time).
package nsysw

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// Options choose the layout.
type Options struct {
	// PerNode writes one report per host holding every rank of the host
	// (as `nsys profile torchrun ...` does); else one report per rank,
	// named report_rank<N>.sqlite (as `-o report_rank%q{RANK}` does).
	PerNode bool
	// NoNVTX leaves out every NVTX range (NCCL's included).
	NoNVTX bool
	// NoCommID writes NCCL payloads without the communicator id, as
	// NCCL before 2.25 does.
	NoCommID bool
	// Dialect chooses what the NVTX side looks like (dialect.go).
	Dialect Dialect
	// StepName names the step ranges of DialectReal: a format with one
	// %d for the step number ("train_step %d", "iteration %d"), or a
	// fixed name ("train_step"); "" is "train_step %d".
	StepName string
	// NoStepRanges leaves the step ranges out (DialectReal): the steps
	// are then visible only in the traffic.
	NoStepRanges bool
	// NoCommInit leaves out the communicator creation ranges, as a capture
	// started after NCCL's init records (nsys --capture-range=cudaProfilerApi
	// around the profiled steps): members are then only the ranks seen
	// using a communicator.
	NoCommInit bool
	// IdleComms are communicators created (ncclCommSplit in DialectReal)
	// that carry no traffic, by members: the composite groups Megatron
	// creates (MODEL_PARALLEL, TENSOR_AND_DATA_PARALLEL, EMBEDDING ...).
	IdleComms [][]int32
}

// Write writes tr into dir and returns the paths written.
func Write(dir string, tr *model.Trace, opts Options) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, g := range groups(tr, opts) {
		p := filepath.Join(dir, g.name)
		if err := writeReport(p, tr, g.ranks, opts); err != nil {
			return paths, fmt.Errorf("write %s: %w", p, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

type group struct {
	name  string
	ranks []int32
}

func groups(tr *model.Trace, opts Options) []group {
	if !opts.PerNode {
		gs := make([]group, len(tr.Ranks))
		for i, r := range tr.Ranks {
			gs[i] = group{fmt.Sprintf("report_rank%d.sqlite", r.Rank), []int32{r.Rank}}
		}
		return gs
	}
	byHost := map[string][]int32{}
	var hosts []string
	for _, r := range tr.Ranks {
		if _, ok := byHost[r.Host]; !ok {
			hosts = append(hosts, r.Host)
		}
		byHost[r.Host] = append(byHost[r.Host], r.Rank)
	}
	gs := make([]group, len(hosts))
	for i, h := range hosts {
		gs[i] = group{fmt.Sprintf("report_node%d.sqlite", i), slices.Clone(byHost[h])}
	}
	return gs
}
