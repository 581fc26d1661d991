package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func twoRankTrace(t *testing.T, rank int32, src string) *Trace {
	t.Helper()
	tr := &Trace{Sources: []Source{{Path: src, Format: "test"}}}
	tr.AddRank(Rank{Rank: rank, LocalGPU: rank, Coord: UnknownCoord})
	s := tr.AddStream(Stream{Rank: rank, GPU: true, ID: 7, Device: rank})
	c := tr.AddComm(Communicator{ID: "tp", Members: []int32{rank}})
	coll := tr.Colls.Append(Collective{Op: OpAllReduce, Bytes: 1024, Comm: c, Seq: 1, Peer: -1, GroupSize: 2})
	for i, k := range []Kind{KindCompute, KindComm} {
		e := NewEvent(rank, k, tr.Names.Intern([]string{"gemm", "ncclDevKernel_AllReduce"}[i]), int64(100*i), 50)
		e.Stream = s
		if k == KindComm {
			e.Coll = coll
		}
		tr.AddEvent(e)
	}
	return tr
}

func TestMergeRemapsAndValidates(t *testing.T) {
	m, err := Merge(twoRankTrace(t, 1, "b.json"), twoRankTrace(t, 0, "a.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatalf("merged trace invalid: %v", err)
	}
	if len(m.Comms) != 1 || len(m.Comms[0].Members) != 2 {
		t.Fatalf("communicators not unioned: %+v", m.Comms)
	}
	if m.Events.Len() != 4 || m.Events.Rank[0] != 0 || m.Name(0) != "gemm" {
		t.Fatalf("events not sorted/remapped: rank0=%d name0=%q", m.Events.Rank[0], m.Name(0))
	}
	lo, hi := m.Events.RankRange(1)
	if lo != 2 || hi != 4 {
		t.Fatalf("RankRange(1) = %d,%d", lo, hi)
	}
	for i := 0; i < m.Events.Len(); i++ {
		if c := m.Events.Coll[i]; c >= 0 && m.Colls.Comm[c] != 0 {
			t.Fatalf("collective comm not remapped")
		}
	}
}

func TestMergeDuplicateRank(t *testing.T) {
	_, err := Merge(twoRankTrace(t, 3, "a.json"), twoRankTrace(t, 3, "b.json"))
	var dup *DuplicateRankError
	if !errors.As(err, &dup) || !strings.Contains(err.Error(), "a.json") || !strings.Contains(err.Error(), "b.json") {
		t.Fatalf("want duplicate rank error naming both files, got %v", err)
	}
}

func TestValidateCatchesViolations(t *testing.T) {
	tr := twoRankTrace(t, 0, "a.json")
	tr.Events.Dur[0] = -5
	tr.Events.Start[1] = -10 // out of order
	tr.Comms[0].Members = append(tr.Comms[0].Members, 9)
	err := tr.Validate()
	for _, want := range []string{"duration -5", "out of order", "lists rank 9"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to mention %q", err, want)
		}
	}
}

// TestValidateUnknownRank checks that each event of a rank missing from the
// rank table is reported, the first of a run and the ones after it, and
// that a known rank after an unknown one is not.
func TestValidateUnknownRank(t *testing.T) {
	tr := &Trace{}
	tr.AddRank(Rank{Rank: 0, LocalGPU: -1, Coord: UnknownCoord})
	tr.AddRank(Rank{Rank: 2, LocalGPU: -1, Coord: UnknownCoord})
	name := tr.Names.Intern("k")
	for _, r := range []int32{0, 1, 1, 2} {
		tr.AddEvent(NewEvent(r, KindCompute, name, 10, 1))
	}
	err := tr.Validate()
	for _, want := range []string{"event 1 belongs to rank 1", "event 2 belongs to rank 1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to mention %q", err, want)
		}
	}
	if err != nil && (strings.Contains(err.Error(), "event 0 belongs") || strings.Contains(err.Error(), "event 3 belongs")) {
		t.Errorf("Validate() = %v: a known rank reported", err)
	}
}

func TestEnumRoundTrip(t *testing.T) {
	for _, k := range Kinds() {
		if ParseKind(k.String()) != k {
			t.Errorf("kind %d does not round-trip", k)
		}
	}
	for o := OpNone; o < opCount; o++ {
		if ParseOp(o.String()) != o {
			t.Errorf("op %d does not round-trip", o)
		}
	}
	for a := AxisUnknown; a < axisCount; a++ {
		if ParseAxis(a.String()) != a {
			t.Errorf("axis %d does not round-trip", a)
		}
	}
}

func TestMergeFillsDescriptiveRanks(t *testing.T) {
	logInfo := &Trace{Sources: []Source{{Path: "nccl.log"}}}
	logInfo.AddRank(Rank{Rank: 0, Host: "node000", LocalGPU: 3, Coord: UnknownCoord, Source: 0})
	m, err := Merge(twoRankTrace(t, 0, "a.json"), logInfo)
	if err != nil {
		t.Fatalf("a rank described by a log must not count as a duplicate: %v", err)
	}
	if m.Ranks[0].Host != "node000" || m.Ranks[0].LocalGPU != 0 {
		t.Fatalf("host should be filled and known GPU kept: %+v", m.Ranks[0])
	}
}

// TestSortOrder: SortOrder leaves the events as they are and names the rows
// in the order Sort puts them: rank, start, longer first, kind, stable.
func TestSortOrder(t *testing.T) {
	var ev Events
	for _, e := range []Event{
		{Rank: 1, Start: 5, Dur: 1, Kind: KindCompute},
		{Rank: 0, Start: 9, Dur: 1, Kind: KindCompute},
		{Rank: 0, Start: 3, Dur: 1, Kind: KindComm},
		{Rank: 0, Start: 3, Dur: 4, Kind: KindAnnotation},
		{Rank: 0, Start: 3, Dur: 1, Kind: KindCompute},
		{Rank: 0, Start: 3, Dur: 1, Kind: KindCompute, Corr: 1},
	} {
		ev.Append(e)
	}
	perm := ev.SortOrder()
	if want := []int32{3, 4, 5, 2, 1, 0}; !slices.Equal(perm, want) {
		t.Fatalf("SortOrder = %v, want %v", perm, want)
	}
	if ev.Rank[0] != 1 || ev.Start[1] != 9 {
		t.Fatal("SortOrder moved rows")
	}
	sorted := ev
	sorted.Sort()
	for i, j := range perm {
		if sorted.At(i) != ev.At(int(j)) {
			t.Errorf("sorted row %d = %+v, want row %d %+v", i, sorted.At(i), j, ev.At(int(j)))
		}
	}
}

// TestMergeCountsWorldDeclarations: seven files declaring 8 ranks and one
// declaring 16 by another cue merge into two declarations, counted.
func TestMergeCountsWorldDeclarations(t *testing.T) {
	var parts []*Trace
	for r := range int32(7) {
		p := &Trace{Sources: []Source{{Path: fmt.Sprint(r)}}}
		p.AddRank(Rank{Rank: r, LocalGPU: -1, Coord: UnknownCoord})
		p.DeclareWorld(8, WorldByKineto, 1)
		parts = append(parts, p)
	}
	parts[0].DeclareWorld(16, WorldByEnv, 1)
	parts[1].DeclareWorld(0, WorldByEnv, 1)          // ignored
	parts[1].DeclareWorld(MaxWorld+1, WorldByEnv, 1) // ignored
	m, err := Merge(parts...)
	if err != nil {
		t.Fatal(err)
	}
	want := []WorldDecl{{16, WorldByEnv, 1}, {8, WorldByKineto, 7}}
	if !slices.Equal(m.World, want) || m.DeclaredWorld() != 16 {
		t.Fatalf("World = %+v (declared %d), want %+v", m.World, m.DeclaredWorld(), want)
	}
}

func TestMergeUnionsAbsentMembers(t *testing.T) {
	a, b := &Trace{}, &Trace{}
	a.AddAbsent("tp", []int32{5})
	b.AddAbsent("tp", []int32{7, 5})
	b.AddAbsent("dp", []int32{13})
	b.AddAbsent("pp", nil) // nothing absent: not recorded
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Absent) != 2 || m.Absent[0].Comm != "tp" || !slices.Equal(m.Absent[0].Ranks, []int32{5, 7}) || !slices.Equal(m.Absent[1].Ranks, []int32{13}) {
		t.Fatalf("Absent = %+v", m.Absent)
	}
}
