package analysis

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// eventWaits is measure.EventWaits of a rank's waits: a wait for each of
// n rows, a later member of a row overwriting an earlier one.
func eventWaits(in *rankIn, n int) []int64 {
	w := make([]int64, n)
	for _, x := range in.waits {
		if int(x.row) < n {
			w[x.row] = x.wait
		}
	}
	return w
}

// TestRowWaitsIsEventWaits: the rows with a wait and their waits, spread
// over n rows, are the dense waits, with rows listed twice (the later
// wins), out of order, past n, and waits of 0.
func TestRowWaitsIsEventWaits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		n := r.IntN(40)
		var in rankIn
		for range r.IntN(30) {
			in.waits = append(in.waits, rowWait{row: int32(r.IntN(n + 5)), wait: int64(r.IntN(4))})
		}
		rows, waits := in.rowWaits(n)
		got := make([]int64, n)
		for k, row := range rows {
			if k > 0 && rows[k-1] >= row {
				t.Fatalf("rows %v not ascending once each", rows)
			}
			got[row] = waits[k]
		}
		if want := eventWaits(&in, n); !slices.Equal(got, want) {
			t.Fatalf("waits %v over %d rows: rowWaits gives %v, want %v", in.waits, n, got, want)
		}
	}
}
