package cli

import (
	"context"

	"github.com/tpptrace/tpptrace/analysis/summary"
	rpt "github.com/tpptrace/tpptrace/report"
)

var nvtxCmd = &Command{
	Name:    "nvtx",
	Summary: "annotation range statistics per name: NVTX ranges, record_function (like nsys nvtx_sum)",
	Usage:   "tpptrace nvtx [flags] <traces|dirs|dataset>...",
	Long: `Prints the annotation ranges of the analysed steps (NVTX ranges in nsys
exports, record_function and user annotations in Kineto traces, and their
GPU side), summed over ranks and grouped by name: count, total, mean,
median, min, max and share of the side's total.

--json and --csv write the rows (ns as numbers, share 0..1).

Examples:
  tpptrace nvtx run1/
  tpptrace nvtx --csv run1/ > ranges.csv`,
}

func init() { nvtxCmd.Run = runNVTX }

func runNVTX(ctx context.Context, env *Env, args []string) error {
	return runSummary(ctx, env, nvtxCmd, args, nil, func(in summaryInput) (rpt.Summary, error) {
		return rpt.NVTXSummary(summary.NVTX(in.t, in.w), windowName(in.w)), nil
	}, nil)
}
