package nccl

import (
	"fmt"
	"testing"
)

// manyEntryDumps is a job of ranks ranks in one world group whose dumps
// hold perRank collectives each, rank 0 stopping one short (the culprit).
func manyEntryDumps(ranks, perRank int) []*Dump {
	world := make([]int32, ranks)
	for i := range world {
		world[i] = int32(i)
	}
	var out []*Dump
	for r := range ranks {
		d := &Dump{Path: fmt.Sprintf("rank_%d", r), Rank: int32(r), CommVersion: "2.27.3",
			Groups: map[string]ProcessGroup{"0": {Name: "0", Desc: "default_pg", Ranks: world}}, Status: map[string]GroupStatus{}}
		n := perRank
		if r == 0 {
			n--
		}
		for i := 1; i <= n; i++ {
			d.Entries = append(d.Entries, Entry{RecordID: int64(i), PGID: "0", PGName: "0", CollSeq: int64(i), Name: "nccl:all_reduce",
				State: "completed", InSizes: [][]int64{{1024}}, InDTypes: []string{"Float"}, Duration: -1})
		}
		out = append(out, d)
	}
	return out
}

// BenchmarkDiagnose grows the entries tenfold: the time per entry should
// stay flat (it grew linearly, i.e. quadratic in all, before the index).
func BenchmarkDiagnose(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		dumps := manyEntryDumps(8, n/8)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Diagnose(dumps); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
		})
	}
}

func TestManyEntriesBlameTheShortRank(t *testing.T) {
	rep, err := Diagnose(manyEntryDumps(4, 5000))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Culprit == nil || rep.Culprit.Kind != KindMissing || len(rep.Culprit.Ranks) != 1 || rep.Culprit.Ranks[0] != 0 || rep.Culprit.Seq != 5000 {
		t.Fatalf("culprit %+v, want rank 0 missing collective 5000", rep.Culprit)
	}
}
