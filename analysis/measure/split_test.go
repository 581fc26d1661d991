package measure

import (
	"reflect"
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

// FuzzSplitWaitsAt: the waits of some rows (SplitWaitsAt) split the
// kernels as the dense waits of every row (SplitWaits) with 0 elsewhere.
// 5 bytes a row: kind (compute or comm), axis, start, length, wait.
func FuzzSplitWaitsAt(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 30, 0, 1, 1, 25, 15, 8, 1, 2, 60, 20, 12, 1, 3, 85, 10, 0})
	f.Add([]byte{1, 1, 0, 10, 20, 1, 1, 0, 10, 3, 1, 6, 5, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		var rows [][4]int64
		var ws []int64
		for ; len(data) >= 5; data = data[5:] {
			kind := int64(model.KindCompute)
			if data[0]&1 == 1 {
				kind = int64(model.KindComm)
			}
			rows = append(rows, [4]int64{kind, int64(data[1] % 7), int64(data[2]), int64(data[2]) + int64(data[3])})
			ws = append(ws, int64(data[4]))
		}
		tr := handTrace(t, rows)
		dense := make([]int64, tr.Events.Len())
		var at []int32
		var sparse []int64
		for i := range dense { // after the sort, row i's wait is the ith byte's, on the kernels with one
			if w := ws[i]; tr.Events.Kind[i] == model.KindComm && w%3 != 0 {
				dense[i] = w
				at, sparse = append(at, int32(i)), append(sparse, w)
			}
		}
		a, b := RankActivity(tr, 0), RankActivity(tr, 0)
		a.SplitWaits(tr, dense)
		b.SplitWaitsAt(tr, at, sparse)
		if !reflect.DeepEqual(a.Transfer, b.Transfer) {
			t.Fatalf("SplitWaitsAt %v, SplitWaits %v", b.Transfer, a.Transfer)
		}
	})
}
