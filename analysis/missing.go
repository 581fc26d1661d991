package analysis

import (
	"fmt"
	"slices"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/model/vocab"
)

// remedyMissing is the missing_ranks finding's remedy.
const remedyMissing = "collect every rank's trace (a lost or unreadable file?) and analyse them together; compare refuses this run"

// maxAbsentLines bounds the evidence lines naming process groups.
const maxAbsentLines = 3

// missing is what the inputs say about ranks they hold no timeline of.
type missing struct {
	declared int      // the most ranks a declaration states, 0 when none does
	read     int      // ranks with a timeline
	ranks    []int    // ascending
	evidence []string // how each was known
}

// findMissing names the ranks the inputs declare but hold no timeline
// (no event) of: ranks below a declared world size, process-group members
// without a trace, and ranks only described (an NCCL log's host line).
func findMissing(t *model.Trace) missing {
	timed := timedRanks(t)
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

// timedRanks is the set of ranks with at least one event.
func timedRanks(t *model.Trace) map[int32]bool {
	out := map[int32]bool{}
	for i, r := range t.Events.Rank {
		if i == 0 || r != t.Events.Rank[i-1] {
			out[r] = true
		}
	}
	return out
}

// declaredLines notes the ranks below each declared size and says, for
// each declaration that has some, where it was read.
func declaredLines(t *model.Trace, note func(int) bool) []string {
	var out []string
	for _, d := range t.World {
		n := 0
		for r := range int(d.Size) {
			if note(r) {
				n++
			}
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("%s = %d in %s", d.By, d.Size, plural(int(d.Count), "trace")))
		}
	}
	return out
}

// absentLines notes the process-group members without a trace.
func absentLines(t *model.Trace, note func(int) bool) []string {
	var out []string
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
			out = append(out, fmt.Sprintf("communicator %s lists %s", commName(t, a.Comm), ranksText(rs)))
		default:
			more++
		}
	}
	if more > 0 {
		verb := "communicators list"
		if more == 1 {
			verb = "communicator lists"
		}
		out = append(out, fmt.Sprintf("%d more %s missing ranks", more, verb))
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
func describedLines(t *model.Trace, note func(int) bool) []string {
	var out []string
	for _, r := range t.Ranks {
		if !note(int(r.Rank)) {
			continue
		}
		from := "an input"
		if r.Source >= 0 && int(r.Source) < len(t.Sources) {
			from = t.Sources[r.Source].Format + " input " + t.Sources[r.Source].Path
		}
		out = append(out, fmt.Sprintf("rank %d is described by %s, which has no timeline of it", r.Rank, from))
	}
	return out
}

// ranksText is "rank 5" or "ranks 2-127".
func ranksText(rs []int) string {
	if len(rs) == 1 {
		return fmt.Sprintf("rank %d", rs[0])
	}
	return "ranks " + result.RankRanges(rs)
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// missingFinding is the high-severity finding naming the missing ranks,
// nil when none is.
func missingFinding(res *result.Result, m missing) *result.Finding {
	if len(m.ranks) == 0 {
		return nil
	}
	counts := fmt.Sprintf("%d read", m.read)
	if m.declared > 0 {
		counts = fmt.Sprintf("%d declared, %d read", m.declared, m.read)
	}
	ev := append(slices.Clone(m.evidence),
		fmt.Sprintf("every figure describes the %s read only; a missing rank may be the slow one", plural(m.read, "rank")))
	return &result.Finding{Kind: vocab.KindMissingRanks, Severity: vocab.SevHigh, Ranks: slices.Clone(m.ranks), Remedy: remedyMissing,
		Summary:  fmt.Sprintf("missing ranks: %s %s no trace among the inputs (%s)", ranksText(m.ranks), hasHave(len(m.ranks)), counts),
		Evidence: ev}
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}
