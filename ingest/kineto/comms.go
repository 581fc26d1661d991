package kineto

import (
	"slices"

	"github.com/tpptrace/tpptrace/model"
)

// pgRanks returns the ranks of process group name from distributedInfo.pg_config.
func (f *fileReader) pgRanks(name string) []int32 {
	for _, pg := range f.info.pgs {
		if pg.Name.S == name {
			return f.rankLists.parseString(pg.Ranks.S)
		}
	}
	return nil
}

// addComm returns the index of the file's communicator for process group
// name, adding it. Members are the group's ranks when known, and always the
// file's own rank. The ID is the group name; Read renames groups whose rank
// lists disagree across files. Both the stated list and the members are
// shared across the files of a read (rankIntern).
func (f *fileReader) addComm(rank int32, name, desc string, ranks []int32) int32 {
	if _, ok := f.lists[name]; !ok && ranks != nil {
		f.lists[name] = f.ranks.get(union(nil, ranks))
	}
	for i := range f.tr.Comms {
		c := &f.tr.Comms[i]
		if c.Name == name {
			c.Members = f.ranks.union(c.Members, ranks)
			c.Desc = cmpOr(c.Desc, desc)
			if c.Axis == model.AxisUnknown {
				c.Axis, c.AxisBy = axisOf(c.Desc)
			}
			return int32(i)
		}
	}
	c := model.Communicator{ID: name, Name: name, Desc: desc, Members: f.ranks.get(union([]int32{rank}, ranks))}
	c.Axis, c.AxisBy = axisOf(desc)
	f.tr.Comms = append(f.tr.Comms, c)
	return int32(len(f.tr.Comms) - 1)
}

func axisOf(desc string) (model.Axis, model.AxisSource) {
	if a := axisFromDesc(desc); a != model.AxisUnknown {
		return a, model.AxisByDescription
	}
	return model.AxisUnknown, model.AxisByUnknown
}

// pgComms adds the process groups that distributedInfo.pg_config lists.
func (f *fileReader) pgComms(rank int32) {
	for _, pg := range f.info.pgs {
		if pg.Name.S == "" {
			continue
		}
		ranks := parseRanks(pg.Ranks.S)
		if ranks != nil && !slices.Contains(ranks, rank) {
			continue
		}
		f.addComm(rank, pg.Name.S, pg.Desc.S, ranks)
	}
}

// union returns the sorted union of two rank lists.
func union(a, b []int32) []int32 {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// pgLists returns the rank list of each process group the file states one for.
func (f *fileReader) pgLists() map[string][]int32 { return f.lists }
