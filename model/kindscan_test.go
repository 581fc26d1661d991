package model

import "testing"

// nextKindLoop is NextKind row by row.
func nextKindLoop(ev *Events, k Kind, from, to int) int {
	for i := max(from, 0); i < min(to, len(ev.Kind)); i++ {
		if ev.Kind[i] == k {
			return i
		}
	}
	return to
}

func FuzzNextKind(f *testing.F) {
	f.Add([]byte{}, byte(KindComm), 0, 0)
	f.Add([]byte{0, 1, 2, 3, byte(KindComm), 5, byte(KindComm)}, byte(KindComm), 1, 6)
	f.Add([]byte{1, 1, 1}, byte(1), -3, 99)
	f.Add([]byte{2, 2, 1, 2}, byte(1), 3, 2)
	f.Fuzz(func(t *testing.T, kinds []byte, k byte, from, to int) {
		ev := &Events{Kind: make([]Kind, len(kinds))}
		for i, b := range kinds {
			ev.Kind[i] = Kind(b)
		}
		// every row of kind k in [from, to), in order, then to
		want := nextKindLoop(ev, Kind(k), from, to)
		if got := ev.NextKind(Kind(k), from, to); got != want {
			t.Fatalf("NextKind(%d, %d, %d) of %v = %d, want %d", k, from, to, kinds, got, want)
		}
		n := 0
		for i := ev.NextKind(Kind(k), from, to); i < to; i = ev.NextKind(Kind(k), i+1, to) {
			if n++; n > len(kinds) {
				t.Fatalf("the loop from %d to %d over %d rows does not end", from, to, len(kinds))
			}
			if ev.Kind[i] != Kind(k) || i < from {
				t.Fatalf("row %d of kind %d listed for kind %d", i, ev.Kind[i], k)
			}
			if w := nextKindLoop(ev, Kind(k), i+1, to); w != ev.NextKind(Kind(k), i+1, to) {
				t.Fatalf("after row %d: %d, want %d", i, ev.NextKind(Kind(k), i+1, to), w)
			}
		}
	})
}
