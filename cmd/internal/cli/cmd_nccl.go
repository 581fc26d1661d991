package cli

import (
	"context"

	"github.com/tpptrace/tpptrace/analysis/summary"
	rpt "github.com/tpptrace/tpptrace/report"
)

var ncclCmd = &Command{
	Name:    "nccl",
	Summary: "collective statistics per communicator, axis, op and message size: wait, transfer, bus bandwidth",
	Usage:   "tpptrace nccl [flags] <traces|dirs|dataset>...",
	Long: `Prints the collectives of the analysed steps, grouped by communicator, its
axis, the op and the message size (powers of 4): members, instances, bytes,
and per member the kernels' time, the part waiting for the last member to
arrive and the transfer after it (on the aligned clock), and the achieved
bus bandwidth of the transfer as nccl-tests defines it (all_reduce counts
2(n−1)/n of the message, all_gather n−1 shards, reduce_scatter and
all_to_all (n−1)/n).

--json and --csv write the rows (ns, bytes and GB/s as numbers).

Examples:
  tpptrace nccl run1/
  tpptrace nccl --json run1/ | jq '.[] | select(.axis == "TP")'`,
}

func init() { ncclCmd.Run = runNCCL }

func runNCCL(ctx context.Context, env *Env, args []string) error {
	return runSummary(ctx, env, ncclCmd, args, nil, func(in summaryInput) (rpt.Summary, error) {
		return rpt.NCCLSummary(summary.NCCL(in.t, in.res, in.w), windowName(in.w)), nil
	}, nil)
}
