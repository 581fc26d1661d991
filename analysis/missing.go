package analysis

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// remedyMissing is the missing_ranks finding's remedy.
const remedyMissing = "collect every rank's trace (a lost or unreadable file?) and analyse them together; compare refuses this run"

// maxAbsentLines bounds the evidence lines naming process groups.
const maxAbsentLines = 3

// missing is what the inputs say about ranks they hold no timeline of.
type missing struct {
	declared int                // the most ranks a declaration states, 0 when none does
	read     int                // ranks with a timeline
	ranks    []int              // ascending
	evidence []result.Statement // how each was known
}

// findMissing names the ranks the inputs declare but hold no timeline
// (no event) of: ranks below a declared world size, process-group members
// without a trace, and ranks only described (an NCCL log's host line);
// timed lists the ranks with events.
func findMissing(t *model.Trace, timedList []int32) missing {
	timed := make(map[int32]bool, len(timedList))
	for _, r := range timedList {
		timed[r] = true
	}
	m := missing{declared: int(t.DeclaredWorld()), read: len(timed)}
	set := map[int]bool{}
	note := func(r int) bool {
		if timed[int32(r)] {
			return false
		}
		set[r] = true
		return true
	}
	m.evidence = append(m.evidence, declaredLines(t, note)...)
	m.evidence = append(m.evidence, absentLines(t, note)...)
	m.evidence = append(m.evidence, describedLines(t, note)...)
	for r := range set {
		m.ranks = append(m.ranks, r)
	}
	slices.Sort(m.ranks)
	return m
}

// declaredLines notes the ranks below each declared size and says, for
// each declaration that has some, where it was read.
func declaredLines(t *model.Trace, note func(int) bool) []result.Statement {
	var out []result.Statement
	for _, d := range t.World {
		n := 0
		for r := range int(d.Size) {
			if note(r) {
				n++
			}
		}
		if n > 0 {
			out = append(out, result.Say(vocab.SayDeclared, result.Count("size", int64(d.Size)), result.Count("traces", int64(d.Count))).Quoting("by", d.By))
		}
	}
	return out
}

// absentLines notes the process-group members without a trace.
func absentLines(t *model.Trace, note func(int) bool) []result.Statement {
	var out []result.Statement
	more := 0
	for _, a := range t.Absent {
		var rs []int
		for _, r := range a.Ranks {
			if note(int(r)) {
				rs = append(rs, int(r))
			}
		}
		switch {
		case len(rs) == 0:
		case len(out) < maxAbsentLines:
			out = append(out, result.Say(vocab.SayListed).About(rs...).Quoting("comm", commName(t, a.Comm)))
		default:
			more++
		}
	}
	if more > 0 {
		out = append(out, result.Say(vocab.SayMoreListed, result.Count("more", int64(more))))
	}
	return out
}

// commName is a communicator's ID with its description when it has one:
// "18 (TENSOR_MODEL_PARALLEL_GROUP)".
func commName(t *model.Trace, id string) string {
	for _, c := range t.Comms {
		if c.ID == id && c.Desc != "" && c.Desc != id {
			return fmt.Sprintf("%s (%s)", id, c.Desc)
		}
	}
	return id
}

// describedLines notes the ranks some input describes (a host, a GPU)
// with no event of theirs.
func describedLines(t *model.Trace, note func(int) bool) []result.Statement {
	var out []result.Statement
	for _, r := range t.Ranks {
		if !note(int(r.Rank)) {
			continue
		}
		from := "an input"
		if r.Source >= 0 && int(r.Source) < len(t.Sources) {
			from = t.Sources[r.Source].Format + " input " + t.Sources[r.Source].Path
		}
		out = append(out, result.Say(vocab.SayDescribed).About(int(r.Rank)).Quoting("from", from))
	}
	return out
}

// missingFinding is the high-severity finding naming the missing ranks,
// nil when none is.
func missingFinding(m missing) *result.Finding {
	if len(m.ranks) == 0 {
		return nil
	}
	head := result.Say(vocab.SayMissing, result.Count("read", int64(m.read))).About(slices.Clone(m.ranks)...)
	if m.declared > 0 {
		head = result.Say(vocab.SayMissingOf, result.Count("declared", int64(m.declared)), result.Count("read", int64(m.read))).About(slices.Clone(m.ranks)...)
	}
	ev := append(slices.Clone(m.evidence), result.Say(vocab.SayReadOnly, result.Count("read", int64(m.read))))
	return &result.Finding{Kind: vocab.KindMissingRanks, Severity: vocab.SevHigh, Ranks: slices.Clone(m.ranks), Remedy: remedyMissing,
		Headline: head, Evidence: ev}
}
