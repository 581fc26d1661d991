package model

import "testing"

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
