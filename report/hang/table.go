package hang

import (
	"fmt"
	"io"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
)

// WriteAttribution writes the culprit in the table layout of NVIDIA's
// nvidia-resiliency-ext Flight Recorder attribution (byte for byte, so the
// two tools' outputs can be diffed): PGID, "desc,window" (the window is
// always 0 here: one analysis window per group), op, size, dtype and the
// missing, mismatching or stuck ranks, one row per independent culprit.
// Nothing is written when there is no culprit.
func WriteAttribution(w io.Writer, rep *result.Hang) error {
	cs := rep.Culprits
	if len(cs) == 0 && rep.Culprit != nil {
		cs = []result.HangFinding{*rep.Culprit}
	}
	if len(cs) == 0 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "%-6s | %-25s | %-10s | %-8s%s| %-8s | %s Ranks\n",
		"PGID", "Process Group Desc", "Op Type", "Size", strings.Repeat(" ", 29), "Dtype", title(cs[0].Kind)); err != nil {
		return err
	}
	for _, c := range cs {
		if _, err := fmt.Fprintf(w, "%-6s | %-25s | %-10s | %-8s%s| %-8s | %s\n",
			c.Group, c.Desc+",0", c.Op, c.Size, strings.Repeat(" ", 33), c.DType, joinRanks(c.Ranks)); err != nil {
			return err
		}
	}
	return nil
}

func title(kind string) string {
	return map[string]string{result.HangMissing: "Missing", result.HangMismatch: "Mismatched", result.HangStuck: "Stuck"}[kind]
}

func joinRanks(rs []int32) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprint(r)
	}
	return strings.Join(parts, ",")
}

// WriteFindings writes every group's first disagreements as a table.
func WriteFindings(w io.Writer, rep *result.Hang) error {
	if _, err := fmt.Fprintf(w, "%-6s %-38s %-8s %-4s %10s %-26s %-14s %-10s %-12s %s\n",
		"PG", "DESC", "KIND", "P2P", "SEQ", "OP", "SIZE", "DTYPE", "RANKS", "WAITING"); err != nil {
		return err
	}
	for _, f := range rep.Findings {
		p2p := ""
		if f.P2P {
			p2p = "yes"
		}
		if _, err := fmt.Fprintf(w, "%-6s %-38s %-8s %-4s %10d %-26s %-14s %-10s %-12s %s\n",
			f.Group, f.Desc, f.Kind, p2p, f.Seq, f.Op, f.Size, f.DType, joinRanks(f.Ranks), joinRanks(f.Present)); err != nil {
			return err
		}
	}
	return nil
}
