package model

import (
	"reflect"
	"slices"
	"testing"
)

func TestMergeFallbackYieldsToTimelines(t *testing.T) {
	fr := twoRankTrace(t, 0, "dump_0")
	other := twoRankTrace(t, 5, "dump_5")
	fr, _ = Merge(fr, other)
	fr.Fallback = true
	m, err := Merge(fr, twoRankTrace(t, 0, "rank0.json"))
	if err != nil {
		t.Fatalf("a fallback part must not clash with a timeline of the same rank: %v", err)
	}
	lo, hi := m.Events.RankRange(0)
	lo5, hi5 := m.Events.RankRange(5)
	if hi-lo != 2 || hi5-lo5 != 2 || m.Events.Len() != 4 {
		t.Fatalf("rank 0 has %d events (want the timeline's 2), rank 5 %d (want the fallback's 2)", hi-lo, hi5-lo5)
	}
	if len(m.Skipped) != 1 || m.Skipped[0].Count != 2 {
		t.Fatalf("the dropped fallback events must be recorded as skipped: %+v", m.Skipped)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(twoRankTrace(t, 0, "a"), twoRankTrace(t, 0, "b")); err == nil {
		t.Fatal("two timelines of one rank must still clash")
	}
}

// fallbackPart is a Fallback part of a collective dump timing ranks: for
// each, one timed all-reduce on a stream and a name of its own, a counter,
// and one skip record; a counter of rank 9 it times no event of.
func fallbackPart(ranks ...int32) *Trace {
	tr := &Trace{Sources: []Source{{Path: "dump.json", Format: "fr"}}, Fallback: true}
	c := tr.AddComm(Communicator{ID: "tp", Members: ranks})
	for _, r := range ranks {
		tr.AddRank(Rank{Rank: r, LocalGPU: -1, Host: "h", Coord: UnknownCoord})
		s := tr.AddStream(Stream{Rank: r, ID: 99, Name: "nccl (dump)"})
		coll := tr.Colls.Append(Collective{Op: OpAllGather, Bytes: 8, DType: tr.Names.Intern("Float"), Comm: c, Seq: 3, Peer: -1, GroupSize: 2})
		e := NewEvent(r, KindComm, tr.Names.Intern("nccl:all_gather"), 1000+int64(r), 10)
		e.Stream, e.Coll = s, coll
		tr.AddEvent(e)
		tr.Counters.Append(Counter{Rank: r, Name: tr.Names.Intern("bytes"), Time: 5, Value: 1})
	}
	tr.Counters.Append(Counter{Rank: 9, Name: tr.Names.Intern("bytes"), Time: 6, Value: 2})
	tr.Skip("dump.json", 7, "byte", "an entry without a state")
	return tr
}

// TestDropFallbackMergesAsMerge: a Fallback part whose every timed rank
// has a timeline, reduced (DropFallback), merges to the trace the part
// itself merges to, between other parts, twice over, with MergeOwned too;
// the ranks it reports are those it times. A trace that is no Fallback
// is returned as it is.
func TestDropFallbackMergesAsMerge(t *testing.T) {
	parts := func(fb ...*Trace) []*Trace {
		out := []*Trace{twoRankTrace(t, 1, "rank1.json"), twoRankTrace(t, 0, "rank0.json")}
		out = append(out, fb...)
		return append(out, &Trace{Skipped: []Skip{{Source: "x", Offset: -1, Reason: "unclaimed", Count: 1}}})
	}
	want, err := Merge(parts(fallbackPart(0, 1), fallbackPart(1))...)
	if err != nil {
		t.Fatal(err)
	}
	a, ranks := fallbackPart(0, 1).DropFallback()
	b, _ := fallbackPart(1).DropFallback()
	if !slices.Equal(ranks, []int32{0, 1}) || a.Fallback || a.Events.Len() != 0 {
		t.Fatalf("reduced: ranks %v, Fallback %v, %d events", ranks, a.Fallback, a.Events.Len())
	}
	for _, merge := range []func(...*Trace) (*Trace, error){Merge, MergeOwned} {
		got, err := merge(parts(a, b)...)
		if err != nil {
			t.Fatal(err)
		}
		sameTrace(t, got, want)
		a, _ = fallbackPart(0, 1).DropFallback()
		b, _ = fallbackPart(1).DropFallback()
	}
	plain := twoRankTrace(t, 0, "a")
	if got, ranks := plain.DropFallback(); got != plain || ranks != nil {
		t.Error("DropFallback changed a trace that is no Fallback")
	}
}

// sameTrace fails unless got and want hold the same tables and events.
func sameTrace(t *testing.T, got, want *Trace) {
	t.Helper()
	g, w := *got, *want
	g.merged, w.merged = mergeMark{}, mergeMark{}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("merged with the reduced part:\n%+v\nwith the Fallback part:\n%+v", g, w)
	}
}

// TestDropFallbackKeptEvents: when a rank the Fallback part times has no
// timeline, Merge keeps its events, and DropFallback says that rank, so
// that a caller knows the reduced part is not Merge's.
func TestDropFallbackKeptEvents(t *testing.T) {
	m, err := Merge(twoRankTrace(t, 0, "rank0.json"), fallbackPart(0, 4))
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := m.Events.RankRange(4); hi-lo != 1 {
		t.Fatalf("Merge kept %d events of rank 4, want its 1", hi-lo)
	}
	if _, ranks := fallbackPart(0, 4).DropFallback(); !slices.Equal(ranks, []int32{0, 4}) {
		t.Errorf("DropFallback says ranks %v, want [0 4]", ranks)
	}
}
