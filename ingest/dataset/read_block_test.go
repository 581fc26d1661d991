package dataset

import (
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

// TestBlockColumnsApart: the ten columns carved from one block have n rows
// each and share no memory: a value written to every row of one column
// leaves the others as they were.
func TestBlockColumnsApart(t *testing.T) {
	for _, n := range []int{0, 1, 3, 1000, 600_001} {
		ev := blockColumns(n)
		if ev.Len() != n || len(ev.Kind) != n || len(ev.Coll) != n || len(ev.Corr) != n {
			t.Fatalf("n %d: columns of %d, %d, %d rows", n, ev.Len(), len(ev.Kind), len(ev.Coll))
		}
		fill := []func(int){
			func(i int) { ev.Rank[i] = 1 }, func(i int) { ev.Stream[i] = 2 }, func(i int) { ev.Kind[i] = 3 },
			func(i int) { ev.Name[i] = 4 }, func(i int) { ev.Start[i] = 5 }, func(i int) { ev.Dur[i] = 6 },
			func(i int) { ev.Corr[i] = 7 }, func(i int) { ev.Iter[i] = 8 }, func(i int) { ev.Micro[i] = 9 },
			func(i int) { ev.Coll[i] = 10 },
		}
		for _, f := range fill {
			for i := range n {
				f(i)
			}
		}
		for i := range n {
			want := model.Event{Rank: 1, Stream: 2, Kind: 3, Name: 4, Start: 5, Dur: 6, Corr: 7, Iter: 8, Micro: 9, Coll: 10}
			if got := ev.At(i); got != want {
				t.Fatalf("n %d row %d: %+v, want %+v (columns overlap)", n, i, got, want)
			}
		}
	}
}
