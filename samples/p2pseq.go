package samples

import (
	"cmp"
	"slices"
)

// dirKey is one direction of pipeline traffic within a group.
type dirKey struct{ group, src, dst int32 }

// numberP2P gives every send/recv instance the Seq the profiler records:
// its position among the transfers of its direction (src→dst) within the
// group, in end order, the order NCCL completes them. With one channel per
// direction this is the per-channel launch order; it stays consistent on
// both ends when activations and gradients share a direction (two-stage
// interleaved pipelines).
func (s *sim) numberP2P() {
	byDir := map[dirKey][]int32{}
	for i := range s.insts {
		if k := s.insts[i].key; k.src >= 0 {
			d := dirKey{k.group, k.src, k.dst}
			byDir[d] = append(byDir[d], int32(i))
		}
	}
	for _, ids := range byDir {
		slices.SortFunc(ids, func(a, b int32) int {
			return cmp.Or(cmp.Compare(s.insts[a].end(), s.insts[b].end()), cmp.Compare(a, b))
		})
		for n, i := range ids {
			s.insts[i].wireSeq = int64(n)
		}
	}
}

// end is the common end: every member's kernel ends then plus its end skew.
func (in *instance) end() int64 { return in.maxStart + in.transfer }
