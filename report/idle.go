package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// rankTable is the table of a job without a pipeline (PP = 1), in place
// of the stage table: a row per rank (or data-parallel replica) with its
// compute, idle GPU time and the exposed communication of each axis that
// communicates, then the mean over every rank. What the Result calls the
// bubble of its one "stage" is not shown: without a pipeline there is none.
func rankTable(w io.Writer, res *result.Result) {
	tab := RankRows(res)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := map[string]string{"rank": "rank", "dp replica": "replica"}[tab.Unit] + "\tcompute ms\tidle ms\tidle\t"
	for _, ax := range tab.Axes {
		head += "exp " + ax + " ms\t"
	}
	fmt.Fprintln(tw, head)
	rows := tab.Rows
	if len(res.Ranks) > 1 {
		rows = append(rows, MeanRankRow(res))
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t", r.Label, vocab.Millis(r.ComputeNs), vocab.Millis(r.IdleNs), vocab.Percent(r.IdleShare))
		for _, ax := range tab.Axes {
			fmt.Fprintf(tw, "%s\t", vocab.Millis(r.ExposedNs[ax]))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if line := passesLine(res); line != "" {
		fmt.Fprintln(w, line)
	}
	if tab.Omitted > 0 {
		fmt.Fprintf(w, "(%d more %ss, less idle and exposed, in --json)\n", tab.Omitted, tab.Unit)
	}
	fmt.Fprintln(w, RankTableNote(tab))
}

// RankTableNote says what the per-rank table's columns hold.
func RankTableNote(tab RankTable) string {
	note := "no pipeline (PP = 1): idle is the GPU running nothing (no kernel, no copy)"
	if len(tab.Axes) > 0 {
		note += "; exposed (exp) is communication with no compute under it"
	}
	note += ", per step"
	for _, ax := range tab.Axes {
		if ax == "A2A" {
			note += "; A2A: all-to-all that is not expert parallelism (an embedding exchange)"
		}
	}
	return note
}

// passesLine gives the forward and backward compute, mean over the ranks,
// when the passes were found; "" otherwise.
func passesLine(res *result.Result) string {
	if len(res.Stages) != 1 || res.Stages[0].ForwardNs+res.Stages[0].BackwardNs == 0 {
		return ""
	}
	s := res.Stages[0]
	return fmt.Sprintf("passes (mean over ranks): forward %s ms, backward %s ms per step", vocab.Millis(s.ForwardNs), vocab.Millis(s.BackwardNs))
}
