package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/units"
)

// idleTable is the stage table of a job without a pipeline (PP = 1): its
// one "stage" is every rank, and what the Result calls its bubble (the GPU
// runs no compute and no communication) is plain idle time, with no ideal
// to compare it with. Forward and backward columns appear only when the
// passes were found.
func idleTable(w io.Writer, res *result.Result) {
	s := res.Stages[0]
	passes := s.ForwardNs > 0 || s.BackwardNs > 0
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "ranks\tcompute ms\t"
	row := fmt.Sprintf("%d\t%s\t", len(s.Ranks), units.Millis(s.ComputeNs))
	if passes {
		head += "fwd ms\tbwd ms\t"
		row += fmt.Sprintf("%s\t%s\t", units.Millis(s.ForwardNs), units.Millis(s.BackwardNs))
	}
	head += "idle ms\tidle\texp TP ms\texp DP ms\t"
	row += fmt.Sprintf("%s\t%s\t%s\t%s\t", units.Millis(s.BubbleNs), units.Percent(s.BubbleFraction),
		units.Millis(s.ExposedNs["TP"]), units.Millis(s.ExposedNs["DP"]))
	fmt.Fprintln(tw, head)
	fmt.Fprintln(tw, row)
	tw.Flush()
	fmt.Fprintln(w, "no pipeline (PP = 1): idle is the GPU running no compute and no communication (copies at most), mean over ranks")
}
