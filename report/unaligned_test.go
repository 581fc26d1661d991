package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestTextHeaderNamesUnalignedRanks: ranks whose clock could not be aligned
// are named on the header line, runs collapsed; nothing is added when every
// clock was aligned.
func TestTextHeaderNamesUnalignedRanks(t *testing.T) {
	r := fixed()
	if h := header(r); strings.Contains(h, "aligned") {
		t.Fatalf("header of an aligned job: %s", h)
	}
	r.Clock.UnalignedRanks = []int{3}
	if h := header(r); !strings.HasSuffix(h, " · clock of rank 3 could not be aligned") {
		t.Errorf("one rank: %s", h)
	}
	for r0 := 16; r0 < 64; r0++ {
		r.Clock.UnalignedRanks = append(r.Clock.UnalignedRanks, r0)
	}
	var b bytes.Buffer
	if err := Text(&b, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(b.String(), "\n")
	if !strings.HasSuffix(first, " · clocks of ranks 3, 16–63 could not be aligned") {
		t.Errorf("header line: %s", first)
	}
}
