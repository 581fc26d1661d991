package samples

import (
	"strconv"

	"github.com/tpptrace/tpptrace/ingest/model"
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

// makeGroups builds the groups and each rank's TP, PP and DP group index.
func (s *sim) makeGroups() {
	c := s.cfg
	n := c.World()
	s.addGroup(DescWorld, model.AxisWorld, seq(0, n, 1))
	s.tpOf, s.ppOf, s.dpOf = make([]int32, n), make([]int32, n), make([]int32, n)
	for pp := range c.PP {
		for tp := range c.TP {
			g := s.addGroup(DescDP, model.AxisDP, seq(c.RankOf(tp, pp, 0), c.DP, c.TP))
			s.assign(s.dpOf, g)
		}
	}
	for pp := range c.PP {
		for dp := range c.DP {
			g := s.addGroup(DescTP, model.AxisTP, seq(c.RankOf(0, pp, dp), c.TP, 1))
			s.assign(s.tpOf, g)
		}
	}
	for i := range c.TP * c.DP {
		g := s.addGroup(DescPP, model.AxisPP, seq(i, c.PP, c.TP*c.DP))
		s.assign(s.ppOf, g)
	}
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
