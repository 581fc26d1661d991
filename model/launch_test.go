package model

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLinkEqualsMapJoin checks the launch column against the join by a map
// per rank (correlation id → the last runtime row with it) on random sorted
// events: ids repeat, runtime ids come in and out of order, every kind
// carries ids.
func TestLinkEqualsMapJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		ev := randomLinkEvents(rng, trial%2 == 0)
		want := mapJoin(&ev)
		unlinked := ev.Launches(0, ev.Len())
		ev.Link()
		if got := ev.Launches(0, ev.Len()); !slices.Equal(got, want) || !slices.Equal(unlinked, want) {
			t.Fatalf("trial %d: linked %v, unlinked %v, want %v", trial, got, unlinked, want)
		}
		if lo, hi := ev.RankRange(2); !slices.Equal(ev.Launches(lo, hi), want[lo:hi]) {
			t.Fatalf("trial %d: rank 2's launches differ from the whole trace's", trial)
		}
	}
}

// TestLinkDroppedOnReorder: sorting or overwriting a row invalidates the
// column, and Launches then computes the new rows' links.
func TestLinkDroppedOnReorder(t *testing.T) {
	var ev Events
	k := NewEvent(0, KindCompute, 1, 10, 5)
	k.Corr = 7
	r := NewEvent(0, KindRuntime, 2, 5, 1)
	r.Corr = 7
	ev.Append(k)
	ev.Append(r)
	ev.Link()
	if got := ev.Launches(0, 2); !slices.Equal(got, []int32{1, -1}) {
		t.Fatalf("before sort: %v", got)
	}
	ev.Sort() // the runtime call starts first: rows swap
	if ev.Linked() {
		t.Fatal("Sort kept a stale launch column")
	}
	if got := ev.Launches(0, 2); !slices.Equal(got, []int32{-1, 0}) {
		t.Fatalf("after sort: %v", got)
	}
	ev.Link()
	r.Corr = 8
	ev.Set(0, r)
	if ev.Linked() || ev.Launches(0, 2)[1] != -1 {
		t.Fatal("Set kept a stale launch column")
	}
}

func randomLinkEvents(rng *rand.Rand, ordered bool) Events {
	var ev Events
	kinds := Kinds()
	for rank := range int32(4) {
		for i := range rng.IntN(40) {
			e := NewEvent(rank, kinds[rng.IntN(len(kinds))], 1, int64(i), 1)
			if rng.IntN(4) > 0 {
				e.Corr = int64(rng.IntN(20))
				if ordered {
					e.Corr = int64(i / 3)
				}
			}
			ev.Append(e)
		}
	}
	return ev
}

func mapJoin(ev *Events) []int32 {
	out := make([]int32, ev.Len())
	byRank := map[int32]map[int64]int32{}
	for i := range ev.Len() {
		if ev.Kind[i] == KindRuntime && ev.Corr[i] >= 0 {
			if byRank[ev.Rank[i]] == nil {
				byRank[ev.Rank[i]] = map[int64]int32{}
			}
			byRank[ev.Rank[i]][ev.Corr[i]] = int32(i)
		}
	}
	for i := range out {
		out[i] = -1
		if r, ok := byRank[ev.Rank[i]][ev.Corr[i]]; ok && ev.Kind[i].OnGPU() && ev.Corr[i] >= 0 {
			out[i] = r
		}
	}
	return out
}

// TestLinkInPartsEqualsMapJoin: a trace large enough to be linked in
// parallel parts (ranks of uneven sizes, one rank much larger than a part)
// links as the map join does.
func TestLinkInPartsEqualsMapJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var ev Events
	kinds := Kinds()
	for rank, n := range []int{3 * linkPartMin, 7, linkPartMin / 2, linkPartMin + 1, 2 * linkPartMin} {
		for i := range n {
			e := NewEvent(int32(rank), kinds[rng.IntN(len(kinds))], 1, int64(i), 1)
			e.Corr = int64(rng.IntN(n/2 + 1))
			ev.Append(e)
		}
	}
	want := mapJoin(&ev)
	ev.Link()
	if got := ev.Launches(0, ev.Len()); !slices.Equal(got, want) {
		t.Fatal("the launch column linked in parts differs from the map join")
	}
}

// TestRankPartsEndAtRankChanges: parts cover the rows in order, each ends
// at a change of rank or the end, and a long rank is never cut.
func TestRankPartsEndAtRankChanges(t *testing.T) {
	rank := make([]int32, 0, 5*linkPartMin)
	for r, n := range []int{linkPartMin / 3, 3 * linkPartMin, 10, linkPartMin} {
		for range n {
			rank = append(rank, int32(r))
		}
	}
	parts := rankParts(rank, 8)
	if len(parts) < 2 {
		t.Fatalf("%d parts for %d rows", len(parts), len(rank))
	}
	for i, p := range parts {
		if i > 0 && p[0] != parts[i-1][1] || i == 0 && p[0] != 0 || p[1] <= p[0] {
			t.Fatalf("part %d %v does not follow %v", i, p, parts[:i])
		}
		if p[1] < len(rank) && rank[p[1]] == rank[p[1]-1] {
			t.Fatalf("part %d %v cuts rank %d", i, p, rank[p[1]])
		}
	}
	if parts[len(parts)-1][1] != len(rank) {
		t.Fatalf("parts end at %d, not %d", parts[len(parts)-1][1], len(rank))
	}
	if got := rankParts(nil, 4); len(got) != 0 {
		t.Fatalf("parts of no rows: %v", got)
	}
}

// TestRowsRebasesLaunches checks that a rank's view links each kernel to
// its launch's row within the view, as the whole trace does.
func TestRowsRebasesLaunches(t *testing.T) {
	var tr Trace
	for r := range int32(2) {
		tr.AddEvent(Event{Rank: r, Stream: -1, Kind: KindRuntime, Start: 0, Dur: 1, Corr: 7, Iter: -1, Micro: -1, Coll: -1})
		tr.AddEvent(Event{Rank: r, Stream: -1, Kind: KindCompute, Start: 2, Dur: 1, Corr: 7, Iter: -1, Micro: -1, Coll: -1})
	}
	tr.Events.Link()
	v := tr.RankView(1)
	if v.Events.Len() != 2 || v.Events.Rank[0] != 1 {
		t.Fatalf("view of rank 1 has %d rows, first rank %v", v.Events.Len(), v.Events.Rank)
	}
	if got := v.Events.Launches(0, 2); got[0] != -1 || got[1] != 0 {
		t.Fatalf("view launches = %v, want [-1 0]", got)
	}
	var plain Trace
	for i := range tr.Events.Len() {
		plain.AddEvent(tr.Events.At(i))
	}
	if got := plain.RankView(1).Events.Launches(0, 2); got[0] != -1 || got[1] != 0 {
		t.Fatalf("computed view launches = %v, want [-1 0]", got)
	}
}

// FuzzAfterCorrIsLastWithCorr: the search from a hint finds the row
// lastWithCorr's plain search finds, for any sorted ids, id and hint.
func FuzzAfterCorrIsLastWithCorr(f *testing.F) {
	f.Add([]byte{1, 2, 2, 2, 5, 9, 9, 12}, int64(2), 0)
	f.Add([]byte{1, 2, 2, 2, 5, 9, 9, 12}, int64(9), 7)
	f.Add([]byte{3, 3, 3}, int64(3), 2)
	f.Add([]byte{}, int64(0), 0)
	f.Add([]byte{0, 4, 8}, int64(-1), 3)
	f.Fuzz(func(t *testing.T, ids []byte, c int64, hint int) {
		corr := make([]int64, len(ids))
		for i, b := range ids {
			corr[i] = int64(b % 32)
		}
		slices.Sort(corr)
		rt := make([]int32, len(corr))
		for i := range rt {
			rt[i] = int32(i)
		}
		at := afterCorr(rt, corr, c%40, hint%(len(rt)+3))
		got := int32(-1)
		if at > 0 && corr[rt[at-1]] == c%40 {
			got = rt[at-1]
		}
		if want := lastWithCorr(rt, corr, c%40); got != want {
			t.Fatalf("ids %v, id %d, hint %d: %d, want %d", corr, c%40, hint, got, want)
		}
		if at < 0 || at > len(rt) || at < len(rt) && corr[rt[at]] <= c%40 || at > 0 && corr[rt[at-1]] > c%40 {
			t.Fatalf("ids %v, id %d: index %d is not the first above it", corr, c%40, at)
		}
	})
}
