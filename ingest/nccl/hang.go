package nccl

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Finding kinds: how the ranks of a process group disagree.
const (
	KindMissing  = "missing"  // ranks never enqueued a collective their peers wait in
	KindMismatch = "mismatch" // ranks enqueued the same collective with different op, size or dtype
	KindStuck    = "stuck"    // ranks have not completed a collective their peers completed
)

// Finding is the first collective of one process group where its ranks
// disagree, for one kind of disagreement.
type Finding struct {
	Group   string  `json:"pg"`
	Desc    string  `json:"desc"`
	Kind    string  `json:"kind"`
	P2P     bool    `json:"p2p"`
	Seq     int64   `json:"seq"` // collective_seq_id (p2p_seq_id when P2P)
	Op      string  `json:"op"`
	Size    string  `json:"size"` // first input's shape, "4096x5120"
	DType   string  `json:"dtype"`
	Ranks   []int32 `json:"ranks"`   // missing, mismatching or stuck ranks
	Present []int32 `json:"present"` // ranks that hold the collective
	Detail  string  `json:"detail,omitempty"`
	Created int64   `json:"created_ns"` // earliest creation among present ranks, epoch ns; 0 unknown
}

// HangReport is what Diagnose finds in a set of dumps.
type HangReport struct {
	Ranks    []int32   `json:"ranks"`    // ranks that have a dump
	Findings []Finding `json:"findings"` // every group's first disagreements
	Culprit  *Finding  `json:"culprit"`  // the disagreement the hang is attributed to, nil when none
	// Culprits are the independent root causes, strongest and earliest
	// first: every finding as strong as the culprit whose blamed ranks no
	// earlier one blames (two hung ranks in disjoint groups are two rows).
	// The first is Culprit.
	Culprits []Finding `json:"culprits,omitempty"`
	// NoDump are the ranks the process groups name that have no usable
	// dump: any of them may be the culprit.
	NoDump []NoDump `json:"no_usable_dump,omitempty"`
}

// NoDump is a rank without a usable dump, and why.
type NoDump struct {
	Rank   int32  `json:"rank"`
	Path   string `json:"path,omitempty"` // the unusable dump, "" when none was given
	Reason string `json:"reason"`
}

// Explain names, for the ranks without a usable dump, the file that was
// skipped for them and why.
func (rep *HangReport) Explain(skips []DumpSkip) {
	for i, n := range rep.NoDump {
		for _, s := range skips {
			if s.Rank == n.Rank {
				rep.NoDump[i].Path, rep.NoDump[i].Reason = s.Path, s.Reason
			}
		}
	}
}

// noDump lists the ranks of the groups that have no dump, ascending.
func noDump(groups []ProcessGroup, byRank map[int32]*Dump) []NoDump {
	seen := map[int32]bool{}
	var out []NoDump
	for _, g := range groups {
		for _, r := range g.Ranks {
			if byRank[r] == nil && !seen[r] {
				seen[r] = true
				out = append(out, NoDump{Rank: r, Reason: "no dump given"})
			}
		}
	}
	slices.SortFunc(out, func(a, b NoDump) int { return cmp.Compare(a.Rank, b.Rank) })
	return out
}

// Diagnose matches the dumps' collectives per process group and attributes
// the hang. Dumps must come from one job (see CheckSameJob).
func Diagnose(dumps []*Dump) (*HangReport, error) {
	if err := CheckSameJob(dumps); err != nil {
		return nil, err
	}
	rep := &HangReport{}
	byRank := map[int32]*Dump{}
	for _, d := range dumps {
		byRank[d.Rank] = d
		rep.Ranks = append(rep.Ranks, d.Rank)
	}
	slices.Sort(rep.Ranks)
	ents, groups := byGroup(dumps), allGroups(dumps)
	for _, g := range groups {
		rep.Findings = append(rep.Findings, newGroupView(g, byRank, ents).findings()...)
	}
	rep.NoDump = noDump(groups, byRank)
	rep.Culprits = attribute(rep.Findings)
	if len(rep.Culprits) > 0 {
		c := rep.Culprits[0]
		rep.Culprit = &c
	}
	return rep, nil
}

// allGroups returns every process group of the dumps, by numeric name.
func allGroups(dumps []*Dump) []ProcessGroup {
	seen := map[string]ProcessGroup{}
	for _, d := range dumps {
		for name, g := range d.Groups {
			seen[name] = g
		}
	}
	out := make([]ProcessGroup, 0, len(seen))
	for _, g := range seen {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b ProcessGroup) int { return compareNames(a.Name, b.Name) })
	return out
}

// compareNames orders numeric names numerically, others after, by text.
func compareNames(a, b string) int {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	switch {
	case errA == nil && errB == nil:
		return cmp.Compare(x, y)
	case errA == nil:
		return -1
	case errB == nil:
		return 1
	}
	return strings.Compare(a, b)
}

// attribute picks the disagreements the hang is blamed on. Ranks that
// enqueued a collective some peer never joined are waiting; a missing rank
// that is not itself waiting is unexplained, i.e. a cause. Collectives are
// preferred over point-to-point operations (a pipeline send may run ahead of
// its receive legitimately), then findings with unexplained missing ranks,
// then the earliest created. Without missing ranks, the earliest mismatch,
// then the earliest stuck collective, is the culprit. Every other finding
// of the strongest kind that blames none of the ranks already blamed is an
// independent cause and follows.
func attribute(fs []Finding) []Finding {
	waiting := map[int32]bool{}
	for _, f := range fs {
		if f.Kind == KindMissing {
			for _, r := range f.Present {
				waiting[r] = true
			}
		}
	}
	order := make([]int, len(fs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(rankFinding(fs[a], waiting), rankFinding(fs[b], waiting)), byCreation(fs[a], fs[b]))
	})
	return independent(fs, order, waiting)
}

// independent keeps, in order, the findings as strong as the first whose
// blamed ranks are all new.
func independent(fs []Finding, order []int, waiting map[int32]bool) []Finding {
	var out []Finding
	blamed := map[int32]bool{}
	for _, i := range order {
		f := fs[i]
		if len(out) > 0 && rankFinding(f, waiting) != rankFinding(out[0], waiting) {
			break
		}
		if slices.ContainsFunc(f.Ranks, func(r int32) bool { return blamed[r] }) {
			continue
		}
		for _, r := range f.Ranks {
			blamed[r] = true
		}
		out = append(out, f)
	}
	return out
}

// byCreation orders findings as earlier does (earlier first).
func byCreation(a, b Finding) int {
	switch {
	case earlier(a, b):
		return -1
	case earlier(b, a):
		return 1
	}
	return 0
}

// rankFinding orders findings by how strongly they point at a cause (lower
// is stronger).
func rankFinding(f Finding, waiting map[int32]bool) int {
	unexplained := slices.ContainsFunc(f.Ranks, func(r int32) bool { return !waiting[r] })
	kind := map[string]int{KindMissing: 0, KindMismatch: 4, KindStuck: 6}[f.Kind]
	if f.P2P {
		kind += 2
	}
	if f.Kind == KindMissing && !unexplained {
		kind++
	}
	return kind
}

func earlier(a, b Finding) bool {
	if a.Created != b.Created && a.Created != 0 && b.Created != 0 {
		return a.Created < b.Created
	}
	return compareNames(a.Group, b.Group) < 0
}
