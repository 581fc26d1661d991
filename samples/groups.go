package samples

import (
	"strconv"

	"github.com/tpptrace/tpptrace/model"
)

// group is a process group as PyTorch numbers it: "0" is the default group
// spanning the world; Megatron then creates the data-parallel, tensor- and
// pipeline-parallel groups in that order, every rank creating every group, so
// the names are the same on all ranks.
type group struct {
	name    string
	desc    string
	axis    model.Axis // the truth; the trace leaves it unknown
	members []int32
}

// makeGroups builds the groups and each rank's group index per axis: the
// data-, tensor- and pipeline-parallel groups in that order, then (when
// their size is above 1) the context- and expert-parallel groups. The DP
// group is Megatron's DATA_PARALLEL_GROUP: the ranks that differ only in
// dp (CP and EP coordinates fixed).
func (s *sim) makeGroups() {
	s.addGroup(DescWorld, model.AxisWorld, seq(0, s.cfg.World(), 1))
	s.dpOf = s.axisGroups(DescDP, model.AxisDP)
	s.tpOf = s.axisGroups(DescTP, model.AxisTP)
	s.ppOf = s.axisGroups(DescPP, model.AxisPP)
	if s.cfg.cp() > 1 {
		s.cpOf = s.axisGroups(DescCP, model.AxisCP)
	}
	if s.cfg.ep() > 1 {
		s.epOf = s.axisGroups(DescEP, model.AxisEP)
	}
}

// axisGroups adds one group of axis a per rank whose coordinate on a is 0
// (in rank order) and returns each rank's group.
func (s *sim) axisGroups(desc string, a model.Axis) []int32 {
	c := s.cfg
	of := make([]int32, c.World())
	size, stride := c.span(a)
	for r := range c.World() {
		if c.coordOn(r, a) == 0 {
			s.assign(of, s.addGroup(desc, a, seq(r, size, stride)))
		}
	}
	return of
}

func (s *sim) addGroup(desc string, axis model.Axis, members []int32) int32 {
	if !s.cfg.Descriptions && axis != model.AxisWorld {
		desc = DescNone
	}
	s.groups = append(s.groups, group{name: strconv.Itoa(len(s.groups)), desc: desc, axis: axis, members: members})
	return int32(len(s.groups) - 1)
}

func (s *sim) assign(of []int32, g int32) {
	for _, r := range s.groups[g].members {
		of[r] = g
	}
}

// seq returns n ranks from first, stride apart.
func seq(first, n, stride int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(first + i*stride)
	}
	return out
}
