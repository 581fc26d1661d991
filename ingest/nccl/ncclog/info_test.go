package ncclog

import (
	"slices"
	"testing"
)

// FuzzInfoMatches checks the fast prefix reader against the regular
// expression it stands for, on every string.
func FuzzInfoMatches(f *testing.F) {
	for _, s := range []string{
		"node000:2910000:2910001 [0] NCCL INFO comm 0x550000000190 rank 0 nRanks 1024",
		"x:1:1 [0] NCCL INFO comm 0xa0 rank 0 nrh:2:2 [1] NCCL INFO comm 0xb0 rank 1",
		"[rank3]: 9node-a.b_c:12:34 [7] NCCL INFO AllReduce: opCount 1",
		"12:1:2 [0] NCCL INFO ", "h::2 [0] NCCL INFO ", "h:1:2 [] NCCL INFO ", "h:1:2  [0] NCCL INFO ",
		"h:1:2 [0] NCCL INFO", "h:1:2 [0] NCCL INFO  NCCL INFO ", "a:1:2 [3] NCCL INFO b:4:5 [6] NCCL INFO ",
		"-.9a:1:2 [0] NCCL INFO x", ":1:2 [0] NCCL INFO ", "é:1:2 [0] NCCL INFO ", "h:1:2 [0]] NCCL INFO ",
		"h:1:2 [0] NCCL INFO h:1:2 [0] NCCL INFO h:1:2 [0] NCCL INFO ", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, want := infoMatches(s), infoRe.FindAllStringSubmatchIndex(s, -1)
		if !slices.EqualFunc(got, want, slices.Equal[[]int]) {
			t.Fatalf("infoMatches(%q) = %v, infoRe = %v", s, got, want)
		}
	})
}

// TestInfoMatchesFinds guards the fuzz target against a fast path that
// finds nothing (and so equals infoRe only where it finds nothing too).
func TestInfoMatchesFinds(t *testing.T) {
	s := "[rank3]: n-1.x:12:34 [7] NCCL INFO AllReduce: opCount 1 b:4:5 [6] NCCL INFO x"
	got := infoMatches(s)
	if len(got) != 2 || s[got[0][2]:got[0][3]] != "n-1.x" || s[got[0][4]:got[0][5]] != "12" || s[got[1][2]:got[1][3]] != "b" {
		t.Fatalf("infoMatches = %v", got)
	}
}
