package cli

import (
	"context"
	"flag"

	"github.com/tpptrace/tpptrace/analysis/summary"
	rpt "github.com/tpptrace/tpptrace/report"
)

var breakdownCmd = &Command{
	Name:    "breakdown",
	Summary: "HTA's per-rank GPU time breakdown: idle, compute, non-compute, comm overlap, kernel types",
	Usage:   "tpptrace breakdown [flags] <traces|dirs|dataset>...",
	Long: `Prints, per rank, what Holistic Trace Analysis calls the temporal breakdown
(the GPU window from the first kernel's start to the last one's end, split
into idle, compute and non-compute time), the communication/computation
overlap (the share of communication time under compute) and the kernel
types (communication and memory unions), over the analysed steps. --hta
uses HTA's own window and rounding instead (every GPU event launched before
the last ProfilerStep), which matches HTA's get_temporal_breakdown and
get_comm_comp_overlap (docs/hta-parity.md). Kernels are classified by name
as HTA does: nccl* is communication; memcpy, memset, sync and HTA's other
non-compute names are non-compute; the rest computation.

--json and --csv write the rows (ns and percentages as numbers).

--kernel-types prints HTA's kernel-type table instead: the GPU time, summed
over ranks, during which each combination of computation, communication
and memory kernels runs ("COMPUTATION overlapping COMMUNICATION"), and its
share; with --hta it matches HTA's get_gpu_kernel_breakdown.

Examples:
  tpptrace breakdown run1/
  tpptrace breakdown --hta --kernel-types run1/
  tpptrace breakdown --hta --csv run1/ > breakdown.csv`,
}

func init() { breakdownCmd.Run = runBreakdown }

func runBreakdown(ctx context.Context, env *Env, args []string) error {
	var hta, kinds bool
	flags := func(fs *flag.FlagSet) {
		fs.BoolVar(&hta, "hta", false, "use HTA's whole-trace window and rounding (HTA parity)")
		fs.BoolVar(&kinds, "kernel-types", false, "print HTA's kernel-type table instead: GPU time by the combination of kernel types running, summed over ranks")
	}
	return runSummary(ctx, env, breakdownCmd, args, flags, func(in summaryInput) (rpt.Summary, error) {
		window := windowName(in.w)
		if hta {
			window = "HTA's window"
		}
		if kinds {
			return rpt.KernelTypeSummary(summary.KernelTypes(in.t, in.w, hta), window), nil
		}
		return rpt.BreakdownSummary(summary.Breakdown(in.t, in.w, hta), window), nil
	}, nil)
}
