package measure

import "github.com/tpptrace/tpptrace/model"

// EventWaits returns, per event of a trace with n events, how long the
// event waited as a collective member for the last member to arrive (0 for
// events that are no member of a timed instance).
func EventWaits(n int, tm *Timings) []int64 {
	w := make([]int64, n)
	for _, m := range tm.Members {
		if int(m.Event) < n {
			w[m.Event] = max(m.Wait, 0)
		}
	}
	return w
}

// SplitWaits fills a.Transfer: per axis, the part of each communication
// kernel after its last member arrived, [start+wait, end) on the rank's
// own clock. A kernel that is no member of a timed instance is transfer
// throughout. waits comes from EventWaits.
func (a *Activity) SplitWaits(t *model.Trace, waits []int64) {
	a.splitWaits(t, func(i int) int64 {
		if i < len(waits) {
			return waits[i]
		}
		return 0
	})
}

// SplitWaitsAt is SplitWaits with the waits of some rows only: rows[k]
// waited waits[k], rows ascending, each once; every other row waited 0.
// It holds no wait for each of the rank's rows (EventWaits).
func (a *Activity) SplitWaitsAt(t *model.Trace, rows []int32, waits []int64) {
	k := 0
	a.splitWaits(t, func(i int) int64 { // i ascends
		for k < len(rows) && int(rows[k]) < i {
			k++
		}
		if k < len(rows) && int(rows[k]) == i {
			return waits[k]
		}
		return 0
	})
}

// splitWaits is SplitWaits with row i's wait from wait(i), called for
// ascending rows.
func (a *Activity) splitWaits(t *model.Trace, wait func(i int) int64) {
	lo, hi := t.Events.RankRange(a.Rank)
	var xs [NAxes][]Interval
	ev := &t.Events
	for i := ev.NextKind(model.KindComm, lo, hi); i < hi; i = ev.NextKind(model.KindComm, i+1, hi) {
		end := ev.Start[i] + ev.Dur[i]
		w := wait(i)
		ax := AxisOf(t, i)
		xs[ax] = append(xs[ax], Interval{min(ev.Start[i]+w, end), end})
	}
	for ax := range xs {
		a.Transfer[ax] = kept(Normalize(xs[ax]))
	}
}
