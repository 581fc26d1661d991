package model

import (
	"strings"
	"testing"
)

func memTrace(rank int32, src string, vals ...int64) *Trace {
	tr := &Trace{Sources: []Source{{Path: src}}}
	tr.AddRank(Rank{Rank: rank, Coord: UnknownCoord})
	tr.Names.Intern("padding " + src) // makes name ids differ between parts
	id := tr.Names.Intern(CounterMemAllocated)
	for i := len(vals) - 1; i >= 0; i-- { // appended out of order on purpose
		tr.Counters.Append(Counter{Rank: rank, Name: id, Time: int64(10 * i), Value: vals[i]})
	}
	tr.Counters.Sort()
	return tr
}

func TestCountersMergeRemapsAndSorts(t *testing.T) {
	m, err := Merge(memTrace(1, "b", 5, 9, 2), memTrace(0, "a", 7, 3))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatalf("merged counters invalid: %v", err)
	}
	if m.Counters.Len() != 5 || m.Counters.Rank[0] != 0 || m.Counters.Value[0] != 7 || m.Counters.Value[2] != 5 {
		t.Fatalf("counters not merged in order: %+v", m.Counters)
	}
	for i := 0; i < m.Counters.Len(); i++ {
		if got := m.Names.Get(m.Counters.Name[i]); got != CounterMemAllocated {
			t.Fatalf("counter %d name = %q after remap", i, got)
		}
	}
}

func TestCounterPeakWindow(t *testing.T) {
	tr := memTrace(0, "a", 5, 9, 2, 4) // levels at 0, 10, 20, 30
	cases := []struct {
		from, to, want int64
	}{
		{0, 100, 9},
		{20, 30, 2}, // only the sample at 20
		{25, 30, 2}, // level in force at 25 is the one set at 20
		{21, 40, 4}, // 2 in force at 21, then 4 at 30
		{11, 15, 9}, // no sample inside: the level set at 10
	}
	for _, c := range cases {
		got, ok := tr.CounterPeak(0, CounterMemAllocated, c.from, c.to)
		if !ok || got != c.want {
			t.Errorf("CounterPeak [%d,%d) = %d,%v, want %d", c.from, c.to, got, ok, c.want)
		}
	}
	if _, ok := tr.CounterPeak(1, CounterMemAllocated, 0, 100); ok {
		t.Error("rank 1 has no counters but CounterPeak found some")
	}
	if _, ok := tr.CounterPeak(0, CounterMemReserved, 0, 100); ok {
		t.Error("reserved counter absent but found")
	}
}

func TestValidateCatchesBadCounters(t *testing.T) {
	tr := memTrace(0, "a", 1, 2)
	tr.Counters.Append(Counter{Rank: 3, Name: 99, Time: 0, Value: 1})
	err := tr.Validate()
	if err == nil {
		t.Fatal("Validate accepted a counter of an unknown rank with a bad name")
	}
	for _, want := range []string{"rank 3", "name id 99"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
