package hang

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// WriteJSON writes rep as indented JSON.
func WriteJSON(w io.Writer, rep *result.Hang) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText writes the attribution table, a line for each rank without a
// usable dump and, with all, every group's first disagreements after a
// blank line. Strings from the dumps are made fit for a terminal.
func WriteText(w io.Writer, rep *result.Hang, all bool) error {
	rep = safeHang(rep)
	if err := WriteAttribution(w, rep); err != nil {
		return err
	}
	if err := writeNoDump(w, rep); err != nil {
		return err
	}
	if !all {
		return nil
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return WriteFindings(w, rep)
}

// writeNoDump names each rank without a usable dump: the attribution above
// cannot see it, and it may be the culprit.
func writeNoDump(w io.Writer, rep *result.Hang) error {
	for _, n := range rep.NoDump {
		why := n.Reason
		if n.Path != "" {
			why = n.Path + ": " + n.Reason
		}
		if _, err := fmt.Fprintf(w, "rank %d: no usable dump (%s) — it may be the culprit\n", n.Rank, vocab.Safe(why)); err != nil {
			return err
		}
	}
	return nil
}

// safeHang is a copy of rep whose strings from the dumps (group names and
// descriptions, ops, shapes, dtypes) are fit for a terminal (vocab.Safe).
func safeHang(rep *result.Hang) *result.Hang {
	out := *rep
	out.Findings = make([]result.HangFinding, len(rep.Findings))
	for i, f := range rep.Findings {
		out.Findings[i] = safeFinding(f)
	}
	out.Culprits = make([]result.HangFinding, len(rep.Culprits))
	for i, f := range rep.Culprits {
		out.Culprits[i] = safeFinding(f)
	}
	if rep.Culprit != nil {
		c := safeFinding(*rep.Culprit)
		out.Culprit = &c
	}
	return &out
}

func safeFinding(f result.HangFinding) result.HangFinding {
	for _, p := range []*string{&f.Group, &f.Desc, &f.Kind, &f.Op, &f.Size, &f.DType, &f.Detail} {
		*p = vocab.Safe(*p)
	}
	return f
}
