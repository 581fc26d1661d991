package dataset

import (
	"os"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// TestReadRankedEqualsRead: the cross-rank trace of ReadRanked is Read's
// trace less the other rows (same tables, names and collectives), and each
// rank's events are Read's rows of that rank, with the collective the
// cross-rank trace has now.
func TestReadRankedEqualsRead(t *testing.T) {
	dir, _ := writeFixture(t, 3)
	whole, _, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	rk, _, err := ReadRanked(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	cross := rk.Trace
	if !slices.Equal(cross.Names.All(), whole.Names.All()) || cross.Colls.Len() != whole.Colls.Len() || len(cross.Streams) != len(whole.Streams) {
		t.Fatalf("tables differ: %d/%d names, %d/%d collectives", cross.Names.Len(), whole.Names.Len(), cross.Colls.Len(), whole.Colls.Len())
	}
	var want []model.Event
	for i := range whole.Events.Len() {
		if whole.Events.CrossRank(i) {
			want = append(want, whole.Events.At(i))
		}
	}
	if len(want) == 0 || len(want) == whole.Events.Len() || cross.Events.Len() != len(want) {
		t.Fatalf("cross-rank rows: %d, want %d of %d", cross.Events.Len(), len(want), whole.Events.Len())
	}
	for i, e := range want {
		if cross.Events.At(i) != e {
			t.Fatalf("cross-rank row %d = %+v, want %+v", i, cross.Events.At(i), e)
		}
	}
	row := cross.Events.Len() - 1
	cross.Events.Coll[row] = 0 // as classify may reassign it
	if int64(rk.EventCount()) != int64(whole.Events.Len()) || len(rk.TimedRanks()) != len(whole.Ranks) {
		t.Fatalf("EventCount %d, TimedRanks %v", rk.EventCount(), rk.TimedRanks())
	}
	for _, r := range rk.TimedRanks() {
		v, err := rk.RankEvents(r)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := whole.Events.RankRange(r)
		if v.Events.Len() != hi-lo || !v.Events.Linked() {
			t.Fatalf("rank %d: %d rows (linked %v), want %d", r, v.Events.Len(), v.Events.Linked(), hi-lo)
		}
		for i := lo; i < hi; i++ {
			got, e := v.Events.At(i-lo), whole.Events.At(i)
			if r == cross.Events.Rank[row] && int32(i-lo) == rk.Local(int32(row)) {
				e.Coll = 0
			}
			if got != e {
				t.Fatalf("rank %d row %d = %+v, want %+v", r, i-lo, got, e)
			}
		}
	}
}

// TestRankedFileChangedIsAnError: a rank's events file that changed after
// ReadRanked (here: another rank's file in its place) is an error when it
// is read again, not a panic or another rank's events.
func TestRankedFileChangedIsAnError(t *testing.T) {
	dir, _ := writeFixture(t, 3)
	rk, _, err := ReadRanked(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(EventsPath(dir, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(EventsPath(dir, 1), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := rk.RankEvents(1); err == nil {
		t.Fatal("rank 1's file replaced by rank 0's: no error")
	}
	if _, err := rk.RankEvents(0); err != nil {
		t.Fatalf("rank 0: %v", err)
	}
}
