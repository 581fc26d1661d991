package hang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/model"
	hangtext "github.com/tpptrace/tpptrace/report/hang"
)

// manyEntryDumps is a job of ranks ranks in one world group whose dumps
// hold perRank collectives each, rank 0 stopping one short (the culprit).
func manyEntryDumps(ranks, perRank int) []*model.FRDump {
	world := make([]int32, ranks)
	for i := range world {
		world[i] = int32(i)
	}
	var out []*model.FRDump
	for r := range ranks {
		d := &model.FRDump{Path: fmt.Sprintf("rank_%d", r), Rank: int32(r), CommVersion: "2.27.3",
			Groups: map[string]model.FRGroup{"0": {Name: "0", Desc: "default_pg", Ranks: world}}, Status: map[string]model.FRGroupStatus{}}
		n := perRank
		if r == 0 {
			n--
		}
		for i := 1; i <= n; i++ {
			d.Entries = append(d.Entries, model.FREntry{RecordID: int64(i), PGID: "0", PGName: "0", CollSeq: int64(i), Name: "nccl:all_reduce",
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

// TestTwoIndependentCulpritsAreBothNamed: ranks 1 and 3 hang in two
// disjoint groups, {0,1} and {2,3}; each is a root cause of its own.
func TestTwoIndependentCulpritsAreBothNamed(t *testing.T) {
	pgs := map[string]model.FRGroup{"73": {Name: "73", Desc: "EP_A", Ranks: []int32{0, 1}}, "74": {Name: "74", Desc: "EP_B", Ranks: []int32{2, 3}}}
	var dumps []*model.FRDump
	for r := int32(0); r < 4; r++ {
		g := map[bool]string{true: "73", false: "74"}[r < 2]
		d := &model.FRDump{Path: fmt.Sprintf("rank_%d", r), Rank: r, CommVersion: "2.27.3", Status: map[string]model.FRGroupStatus{},
			Groups: map[string]model.FRGroup{g: pgs[g]}}
		n := 3
		if r == 1 || r == 3 {
			n = 2
		}
		for i := 1; i <= n; i++ {
			d.Entries = append(d.Entries, model.FREntry{RecordID: int64(i), PGID: g, PGName: g, CollSeq: int64(i), Name: "nccl:all_to_all",
				State: "completed", Created: int64(100*i) + int64(r), InSizes: [][]int64{{4, 5}}, InDTypes: []string{"BFloat16"}, Duration: -1})
		}
		dumps = append(dumps, d)
	}
	rep, err := Diagnose(dumps)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Culprits) != 2 || rep.Culprits[0].Group != "73" || rep.Culprits[0].Ranks[0] != 1 || rep.Culprits[1].Group != "74" || rep.Culprits[1].Ranks[0] != 3 {
		t.Fatalf("culprits %+v, want PG 73 rank 1 and PG 74 rank 3", rep.Culprits)
	}
	if rep.Culprit == nil || rep.Culprit.Group != "73" {
		t.Fatalf("culprit %+v, want the first of the culprits", rep.Culprit)
	}
	var b strings.Builder
	hangtext.WriteAttribution(&b, rep)
	if lines := strings.Split(strings.TrimSpace(b.String()), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[2], "74 ") {
		t.Fatalf("attribution is not a header and two rows:\n%s", b.String())
	}
}
