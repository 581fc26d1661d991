package measure

import (
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

func TestSplitWaitsHandComputed(t *testing.T) {
	C, M := int64(model.KindCompute), int64(model.KindComm)
	tr := handTrace(t, [][4]int64{
		{C, 0, 0, 30}, {C, 0, 50, 60}, {C, 0, 98, 110},
		{M, int64(model.AxisTP), 25, 40}, {M, int64(model.AxisPP), 60, 80}, {M, int64(model.AxisDP), 85, 95},
	})
	waits := make([]int64, tr.Events.Len())
	for i := range waits {
		switch AxisOf(tr, i) {
		case model.AxisTP:
			waits[i] = 8 // transfer [33, 40): 3 of the exposed 10 is waiting
		case model.AxisPP:
			waits[i] = 12 // transfer [72, 80)
		}
	}
	a := RankActivity(tr, 0)
	a.SplitWaits(tr, waits)
	f := a.Measure(Interval{0, 100})
	checks := []struct {
		name      string
		got, want int64
	}{
		{"exposed TP", f.Exposed[model.AxisTP], 10}, {"exposed TP transfer", f.ExposedTransfer[model.AxisTP], 7},
		{"exposed PP transfer", f.ExposedTransfer[model.AxisPP], 8}, {"exposed DP transfer (unmatched)", f.ExposedTransfer[model.AxisDP], 10},
		{"bubble", f.Bubble, 38}, {"bubble PP wait", f.BubblePPWait, 12}, {"bubble PP transfer", f.BubblePPTransfer, 8},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

func TestEventWaitsFromMembers(t *testing.T) {
	tm := Timings{Members: []Member{{Event: 2, Wait: 40}, {Event: 0, Wait: 0}, {Event: 9, Wait: 5}}}
	w := EventWaits(4, &tm)
	if len(w) != 4 || w[2] != 40 || w[0] != 0 || w[1] != 0 {
		t.Fatalf("EventWaits = %v, want [0 0 40 0] (event 9 out of range ignored)", w)
	}
}
