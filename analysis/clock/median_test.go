package clock

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// sortedMedian is median by a full sort (TestMedianIsSortedMedian's oracle).
func sortedMedian(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Sorted(slices.Values(v))
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return v[n/2-1] + (v[n/2]-v[n/2-1])/2
}

// TestMedianIsSortedMedian checks the selection against a sort, on short
// and long inputs, spread and full of repeats, and that nth places v[k].
func TestMedianIsSortedMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		n := rng.IntN(300)
		spread := []int64{3, 50, 1 << 40}[trial%3]
		v := make([]int64, n)
		for i := range v {
			v[i] = rng.Int64N(2*spread) - spread
		}
		if trial%7 == 0 {
			slices.Sort(v) // sorted input
		}
		want := sortedMedian(v)
		if got := median(slices.Clone(v)); got != want {
			t.Fatalf("median(%v) = %d, want %d", v, got, want)
		}
		if n == 0 {
			continue
		}
		k := rng.IntN(n)
		w := slices.Clone(v)
		x := nth(w, k)
		s := slices.Sorted(slices.Values(v))
		if x != s[k] || w[k] != x || slices.Max(w[:k+1]) != x || slices.Min(w[k:]) != x {
			t.Fatalf("nth(%v, %d) = %d, reordered %v; want %d", v, k, x, w, s[k])
		}
	}
}
