package steps

import "testing"

// TestIterAt: a time takes the iteration of the window holding it (start
// inclusive, end exclusive); gaps, times before the first and after the
// last window, and no windows give -1.
func TestIterAt(t *testing.T) {
	ws := []Window{{Iter: 3, Start: 10, End: 20}, {Iter: 4, Start: 20, End: 25}, {Iter: 7, Start: 40, End: 50}}
	for x, want := range map[int64]int32{9: -1, 10: 3, 19: 3, 20: 4, 24: 4, 25: -1, 39: -1, 40: 7, 49: 7, 50: -1, 1000: -1} {
		if got := iterAt(ws, x); got != want {
			t.Errorf("iterAt(%d) = %d, want %d", x, got, want)
		}
	}
	if got := iterAt(nil, 5); got != -1 {
		t.Errorf("no windows: %d", got)
	}
}
