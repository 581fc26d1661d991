package model

import "fmt"

// FRJobError says that the Flight Recorder dumps given do not come from
// one job.
type FRJobError struct {
	Path   string // the dump that disagrees with the others
	Reason string
}

func (e *FRJobError) Error() string {
	return fmt.Sprintf("%s: not from the same job as the other dumps: %s", e.Path, e.Reason)
}

// CheckFRJob checks that no two dumps claim one rank, that they agree on
// every process group they share (description and ranks) and on the world
// size, and that they carry the same NCCL version. The dump that disagrees
// with the majority is named.
func CheckFRJob(dumps []*FRDump) error {
	if len(dumps) == 0 {
		return fmt.Errorf("no Flight Recorder dumps")
	}
	owner := map[int32]string{}
	for _, d := range dumps {
		if prev, ok := owner[d.Rank]; ok {
			return &FRJobError{Path: d.Path, Reason: fmt.Sprintf("rank %d is also claimed by %s", d.Rank, prev)}
		}
		owner[d.Rank] = d.Path
	}
	major, version := majorityGroups(dumps), majorityVersion(dumps)
	for _, d := range dumps {
		if err := agrees(d, major, version); err != nil {
			return err
		}
	}
	return nil
}

// groupKey is what must agree about a group across dumps.
func groupKey(g FRGroup) string { return fmt.Sprintf("%s %v", g.Desc, g.Ranks) }

// majorityGroups returns, per group name, the form most dumps give.
func majorityGroups(dumps []*FRDump) map[string]string {
	votes := map[string]map[string]int{}
	for _, d := range dumps {
		for name, g := range d.Groups {
			if votes[name] == nil {
				votes[name] = map[string]int{}
			}
			votes[name][groupKey(g)]++
		}
	}
	out := map[string]string{}
	for name, v := range votes {
		best := ""
		for k, n := range v {
			if n > v[best] || n == v[best] && k < best {
				best = k
			}
		}
		out[name] = best
	}
	return out
}

func agrees(d *FRDump, major map[string]string, v string) error {
	for _, name := range d.GroupNames() {
		if k := groupKey(d.Groups[name]); k != major[name] {
			return &FRJobError{Path: d.Path, Reason: fmt.Sprintf("its process group %s is %s where the others say %s", name, k, major[name])}
		}
	}
	if d.CommVersion != v {
		return &FRJobError{Path: d.Path, Reason: fmt.Sprintf("NCCL %q where the others run %q", d.CommVersion, v)}
	}
	return nil
}

func majorityVersion(dumps []*FRDump) string {
	n := map[string]int{}
	best := ""
	for _, d := range dumps {
		n[d.CommVersion]++
		if n[d.CommVersion] > n[best] {
			best = d.CommVersion
		}
	}
	return best
}
