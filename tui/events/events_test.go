package events

import "testing"

// TestWindowHoldsEveryOverlappingEvent: the index range of a window holds
// every event that overlaps it, long ones that started before it included.
func TestWindowHoldsEveryOverlappingEvent(t *testing.T) {
	var l Lane
	for i := range 200 {
		dur := int64(5)
		if i%37 == 0 {
			dur = 400 // long events that start far before later windows
		}
		l.Add(int64(10*i), dur, 0, 0, Compute, -1, -1, -1)
	}
	for from := int64(-50); from < 2100; from += 13 {
		to := from + 40
		lo, hi := l.Window(from, to)
		for i := range l.Len() {
			overlaps := l.Start[i] < to && l.Start[i]+l.Dur[i] > from
			if overlaps && (i < lo || i >= hi) {
				t.Fatalf("[%d, %d): event %d [%d, +%d) outside [%d, %d)", from, to, i, l.Start[i], l.Dur[i], lo, hi)
			}
		}
	}
}

func TestKindNames(t *testing.T) {
	for _, k := range []Kind{Compute, Comm, Memcpy, Memset} {
		if KindOf(k.String()) != k {
			t.Errorf("%v does not round-trip", k)
		}
	}
}
