package analysis

import (
	"reflect"
	"sync"
	"testing"

	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestFullSourceViewsOnce: each rank's view is made once and handed to
// every reader, concurrent ones too, and is the rank's RankView; a rank
// the trace does not have gets an empty view, not another rank's.
func TestFullSourceViewsOnce(t *testing.T) {
	tr := sampletest.Job(t, "balanced-1f1b").Trace
	tr.Events.Link()
	s := newFullSource(tr)
	for _, rk := range tr.Ranks {
		var got [4]any
		var wg sync.WaitGroup
		for k := range got {
			wg.Go(func() { v, _ := s.RankEvents(rk.Rank); got[k] = v })
		}
		wg.Wait()
		for k := range got {
			if got[k] != got[0] {
				t.Fatalf("rank %d: reader %d got another view", rk.Rank, k)
			}
		}
		v, _ := s.RankEvents(rk.Rank)
		want := tr.RankView(rk.Rank)
		if !reflect.DeepEqual(v.Events, want.Events) || v.Events.Len() == 0 {
			t.Fatalf("rank %d: the cached view's %d events differ from RankView's %d", rk.Rank, v.Events.Len(), want.Events.Len())
		}
	}
	if v, _ := s.RankEvents(1 << 20); v.Events.Len() != 0 {
		t.Fatalf("a rank not in the trace has %d events", v.Events.Len())
	}
}
