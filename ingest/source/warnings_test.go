package source

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// TestWarnings: warnings added from many goroutines are all kept, each
// goroutine's in its order; Msgs is a copy, Take empties the collector.
func TestWarnings(t *testing.T) {
	var w Warnings
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 100 {
				w.Add(fmt.Sprintf("%d %03d", g, i))
			}
		})
	}
	wg.Wait()
	msgs := w.Msgs()
	msgs[0] = "changed"
	if got := w.Take(); len(got) != 400 || got[0] == "changed" {
		t.Fatalf("took %d warnings (first %q), want 400, unchanged by the copy", len(got), got[0])
	} else {
		for g := range 4 {
			var mine []string
			for _, m := range got {
				if m[0] == byte('0'+g) {
					mine = append(mine, m)
				}
			}
			if !slices.IsSorted(mine) {
				t.Errorf("goroutine %d's warnings out of order", g)
			}
		}
	}
	if rest := w.Take(); len(rest) != 0 {
		t.Errorf("%d warnings left after Take", len(rest))
	}
}
