package hang

import (
	"cmp"
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// Explain names, for the ranks without a usable dump, the file that was
// skipped for them and why.
func Explain(rep *Report, skips []model.FRSkip) {
	for i, n := range rep.NoDump {
		for _, s := range skips {
			if s.Rank == n.Rank {
				rep.NoDump[i].Path, rep.NoDump[i].Reason = s.Path, s.Reason
			}
		}
	}
}

// noDump lists the ranks of the groups that have no dump, ascending.
func noDump(groups []model.FRGroup, byRank map[int32]*model.FRDump) []NoDump {
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
// the hang. Dumps must come from one job (see model.CheckFRJob).
func Diagnose(dumps []*model.FRDump) (*Report, error) {
	if err := model.CheckFRJob(dumps); err != nil {
		return nil, err
	}
	rep := &Report{}
	byRank := map[int32]*model.FRDump{}
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
func allGroups(dumps []*model.FRDump) []model.FRGroup {
	seen := map[string]model.FRGroup{}
	for _, d := range dumps {
		for name, g := range d.Groups {
			seen[name] = g
		}
	}
	out := make([]model.FRGroup, 0, len(seen))
	for _, g := range seen {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b model.FRGroup) int { return model.CompareFRNames(a.Name, b.Name) })
	return out
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
	return model.CompareFRNames(a.Group, b.Group) < 0
}
