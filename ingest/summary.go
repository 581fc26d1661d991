package ingest

import (
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// Summary is what `tpptrace ingest` prints about a trace.
type Summary struct {
	Sources     int            `json:"sources"`
	Ranks       []RankSummary  `json:"ranks"`
	Events      int            `json:"events"`
	ByKind      map[string]int `json:"events_by_kind"`
	Iterations  []int32        `json:"iterations"`
	Collectives map[string]int `json:"collectives_by_op"`
	Comms       []CommSummary  `json:"communicators"`
	Skipped     []SkipRow      `json:"skipped"`
}

// RankSummary is one rank's line.
type RankSummary struct {
	Rank   int32  `json:"rank"`
	Host   string `json:"host,omitempty"`
	GPU    string `json:"gpu,omitempty"`
	Events int    `json:"events"`
	Source string `json:"source,omitempty"`
}

// CommSummary is one communicator's line.
type CommSummary struct {
	ID      string  `json:"id"`
	Desc    string  `json:"description,omitempty"`
	Members []int32 `json:"members"`
	Axis    string  `json:"axis"`
	AxisBy  string  `json:"axis_by"`
	Kernels int     `json:"kernels"`
}

// SkipRow is one skipped item: the file, the position (-1: none), why,
// and how many items it stands for.
type SkipRow struct {
	Source string `json:"source"`
	Offset int64  `json:"offset"`
	Unit   string `json:"unit,omitempty"`
	Reason string `json:"reason"`
	Count  int64  `json:"count"`
}

// Summarize counts what a trace holds.
func Summarize(t *model.Trace) Summary {
	s := Summary{Sources: len(t.Sources), Events: t.Events.Len(), ByKind: map[string]int{}, Collectives: map[string]int{},
		Iterations: []int32{}, Comms: []CommSummary{}, Skipped: []SkipRow{}}
	for k, n := range t.CountByKind() {
		s.ByKind[k.String()] = n
	}
	s.Ranks = rankSummaries(t)
	s.Iterations = iterations(t)
	s.Comms = commSummaries(t, s.Collectives)
	for _, k := range t.Skipped {
		s.Skipped = append(s.Skipped, SkipRow{k.Source, k.Offset, k.Unit, k.Reason, k.Count})
	}
	return s
}

func rankSummaries(t *model.Trace) []RankSummary {
	out := make([]RankSummary, 0, len(t.Ranks))
	for _, r := range t.Ranks {
		lo, hi := t.Events.RankRange(r.Rank)
		rs := RankSummary{Rank: r.Rank, Host: r.Host, GPU: r.GPUName, Events: hi - lo}
		if r.Source >= 0 && int(r.Source) < len(t.Sources) {
			rs.Source = t.Sources[r.Source].Path
		}
		out = append(out, rs)
	}
	return out
}

// iterations lists the distinct iteration numbers, ascending.
func iterations(t *model.Trace) []int32 {
	seen := map[int32]bool{}
	out := []int32{}
	for _, it := range t.Events.Iter {
		if it >= 0 && !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	slices.Sort(out)
	return out
}

// commSummaries lists communicators with their kernel counts, and counts
// the collectives by op into ops.
func commSummaries(t *model.Trace, ops map[string]int) []CommSummary {
	kernels := make([]int, len(t.Comms))
	for _, c := range t.Events.Coll {
		if c < 0 {
			continue
		}
		ops[t.Colls.Op[c].String()]++
		if cm := t.Colls.Comm[c]; cm >= 0 && int(cm) < len(kernels) {
			kernels[cm]++
		}
	}
	out := make([]CommSummary, len(t.Comms))
	for i, c := range t.Comms {
		out[i] = CommSummary{c.ID, c.Desc, append([]int32{}, c.Members...), c.Axis.String(), c.AxisBy.String(), kernels[i]}
	}
	return out
}
