package analysis

import (
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// TestAxisSlotIsAxisKey checks that axisSlot indexes axisKey's answer for
// every axis value, named or not.
func TestAxisSlotIsAxisKey(t *testing.T) {
	for a := range 256 {
		if got, want := axisKeys[axisSlot(model.Axis(a))], axisKey(model.Axis(a)); got != want {
			t.Errorf("axis %d: axisKeys[axisSlot] = %q, axisKey = %q", a, got, want)
		}
	}
}

// TestRankSlotSparse checks rankSlot on dense and on sparse (map) ranks.
func TestRankSlotSparse(t *testing.T) {
	for _, ranks := range [][]int32{{0, 1, 2, 5}, {3, 1 << 24, 7}, {-1, 4}} {
		r := &run{}
		for _, rk := range ranks {
			r.ranks = append(r.ranks, rankRun{rank: rk})
		}
		for i, rk := range ranks {
			if j, ok := r.rankSlot(rk); !ok || j != i {
				t.Errorf("ranks %v: rankSlot(%d) = %d %v, want %d", ranks, rk, j, ok, i)
			}
		}
		for _, rk := range []int32{-2, 6, 1 << 20, 1<<24 + 1} {
			if j, ok := r.rankSlot(rk); ok {
				t.Errorf("ranks %v: rankSlot(%d) = %d, want none", ranks, rk, j)
			}
		}
	}
}
