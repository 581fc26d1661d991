package dataset

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tpptrace/tpptrace/model"
)

func withCounters(t *testing.T) *model.Trace {
	tr := buildTrace(t, 2)
	for _, r := range tr.Ranks {
		for i, name := range []string{model.CounterMemAllocated, model.CounterMemReserved} {
			id := tr.Names.Intern(name)
			for k := int64(0); k < 3; k++ {
				tr.Counters.Append(model.Counter{Rank: r.Rank, Name: id, Time: 1000 * k, Value: int64(r.Rank+1)*100*(k+1) + int64(i)})
			}
		}
	}
	tr.Counters.Sort()
	return tr
}

func TestCountersRoundTrip(t *testing.T) {
	tr := withCounters(t)
	_, got, _ := writeRead(t, tr, Manifest{Created: time.Unix(0, 0)})
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	if got.Counters.Len() != tr.Counters.Len() || got.Counters.Len() == 0 {
		t.Fatalf("%d counters back, wrote %d", got.Counters.Len(), tr.Counters.Len())
	}
	for i := 0; i < tr.Counters.Len(); i++ {
		a, b := tr.Counters.At(i), got.Counters.At(i)
		if a.Rank != b.Rank || a.Time != b.Time || a.Value != b.Value || tr.Names.Get(a.Name) != got.Names.Get(b.Name) {
			t.Fatalf("counter %d: wrote %+v (%s), read %+v (%s)", i, a, tr.Names.Get(a.Name), b, got.Names.Get(b.Name))
		}
	}
}

func TestCountersPartialAndAbsent(t *testing.T) {
	tr := withCounters(t)
	dir := filepath.Join(t.TempDir(), "ds")
	if err := Write(dir, tr, Manifest{}); err != nil {
		t.Fatal(err)
	}
	r := tr.Ranks[len(tr.Ranks)-1].Rank
	part, _, err := ReadRanks(dir, []int32{r})
	if err != nil {
		t.Fatal(err)
	}
	if part.Counters.Len() != 6 {
		t.Fatalf("ReadRanks(%d) gave %d counters, want 6", r, part.Counters.Len())
	}
	for _, x := range part.Counters.Rank {
		if x != r {
			t.Fatalf("counter of rank %d in a read of rank %d", x, r)
		}
	}
	tr.Counters = model.Counters{}
	if err := Write(dir, tr, Manifest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, countersFile)); !os.IsNotExist(err) {
		t.Fatalf("rewriting without counters left %s (%v)", countersFile, err)
	}
}
