package steps

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// rankSource hands out, for rank r, a trace whose one rank is r, or the
// error fail names for it; it counts the reads.
type rankSource struct {
	fail  map[int32]bool
	reads atomic.Int64
}

func (s *rankSource) TimedRanks() []int32 { return nil }

func (s *rankSource) RankEvents(r int32) (*model.Trace, error) {
	s.reads.Add(1)
	if s.fail[r] {
		return nil, fmt.Errorf("rank %d: unreadable", r)
	}
	return &model.Trace{Ranks: []model.Rank{{Rank: r}}}, nil
}

// TestEachReadsEveryRankInItsSlot checks that views.each hands each index
// its own rank's events, an empty trace for a rank that fails, and keeps
// the first failure in the ranks' order whatever the schedule.
func TestEachReadsEveryRankInItsSlot(t *testing.T) {
	ranks := []int32{9, 3, 7, 1, 5, 11, 2, 8}
	for range 20 {
		v := &views{src: &rankSource{fail: map[int32]bool{5: true, 7: true, 2: true}}}
		got := make([]int32, len(ranks))
		v.each(ranks, nil, func(i int, tr *model.Trace) {
			got[i] = -1
			if len(tr.Ranks) == 1 {
				got[i] = tr.Ranks[0].Rank
			}
		})
		want := []int32{9, 3, -1, 1, -1, 11, -1, 8}
		if !slices.Equal(got, want) {
			t.Fatalf("each gave %v, want %v", got, want)
		}
		if v.err == nil || v.err.Error() != "rank 7: unreadable" {
			t.Fatalf("kept %v, want rank 7's error (the first in the ranks' order)", v.err)
		}
	}
}

// TestEachStops checks that ranks not started once stop says so are not
// read.
func TestEachStops(t *testing.T) {
	src := &rankSource{}
	v := &views{src: src}
	var seen atomic.Int64
	v.each(make([]int32, 1000), func() bool { return seen.Load() >= 3 }, func(int, *model.Trace) { seen.Add(1) })
	if n := src.reads.Load(); n < 3 || n > 3+8 {
		t.Errorf("%d of 1000 ranks read after stop turned true at 3", n)
	}
	if !errors.Is(v.err, nil) {
		t.Errorf("error %v with no failing rank", v.err)
	}
}

// TestBurstCountsIsEveryRanks checks burstCounts against each rank's
// counts taken one rank after another, in the ranks' order.
func TestBurstCountsIsEveryRanks(t *testing.T) {
	j := newStepJob(4)
	for r := range 4 {
		for k := range 3 + r%2 {
			j.step(r, k, "")
		}
	}
	src := j.done().Ranked()
	ranks := src.TimedRanks()
	want := map[int32][]int{}
	for _, r := range ranks {
		rt, _ := src.RankEvents(r)
		for name, n := range rankBursts(rt, r) {
			want[name] = append(want[name], n)
		}
	}
	got := burstCounts(&views{src: src}, ranks)
	if len(got) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("burstCounts %v, want %v", got, want)
	}
	for name, per := range got {
		if len(per) != len(ranks) {
			t.Errorf("kernel %d: counts of %d ranks, want %d", name, len(per), len(ranks))
		}
	}
}
