package cli

import (
	"context"
	"flag"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/summary"
	rpt "github.com/tpptrace/tpptrace/report"
)

var kernelsCmd = &Command{
	Name:    "kernels",
	Summary: "GPU kernel statistics per name, stream, rank or class (like nsys cuda_gpu_kern_sum)",
	Usage:   "tpptrace kernels [--by name|stream|rank|class] [flags] <traces|dirs|dataset>...",
	Long: `Prints the GPU kernels (compute, communication, memcpy, memset) of the analysed
steps, summed over ranks and grouped by kernel name (default), by rank and
stream, by rank, or by class (compute, comm <axis>, memcpy, memset): count,
total, mean, median, min, max and share of the total, largest total first.

--json and --csv write the rows (ns as numbers, share 0..1).

Examples:
  tpptrace kernels run1/ | head -20
  tpptrace kernels --by class run1/
  tpptrace kernels --by stream --csv run1/ > streams.csv`,
}

func init() { kernelsCmd.Run = runKernels }

func runKernels(ctx context.Context, env *Env, args []string) error {
	by := summary.ByName
	flags := func(fs *flag.FlagSet) {
		fs.StringVar(&by, "by", summary.ByName, "group by `what`: "+strings.Join(summary.KernelGroupings, ", "))
	}
	check := func() error {
		if !slices.Contains(summary.KernelGroupings, by) {
			return usagef("--by: want one of %s, got %q", strings.Join(summary.KernelGroupings, ", "), by)
		}
		return nil
	}
	return runSummary(ctx, env, kernelsCmd, args, flags, func(in summaryInput) (rpt.Summary, error) {
		rows, err := summary.Kernels(in.t, in.w, by)
		return rpt.KernelsSummary(rows, by, windowName(in.w)), err
	}, check)
}
