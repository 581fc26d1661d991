package measure

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bitmap is the brute-force reference: one bool per nanosecond in [0, 200).
type bitmap [200]bool

func toBits(s Set) (b bitmap) {
	for _, iv := range s {
		for t := iv.Start; t < iv.End; t++ {
			b[t] = true
		}
	}
	return b
}

func randSet(r *rand.Rand) (Set, []Interval) {
	n := r.IntN(8)
	raw := make([]Interval, n)
	for i := range raw {
		s := r.Int64N(190)
		raw[i] = Interval{s, s + r.Int64N(30) - 5} // some empty or inverted
		raw[i].End = min(raw[i].End, 199)
	}
	return Normalize(slices.Clone(raw)), raw
}

func checkCanonical(t *testing.T, s Set) {
	t.Helper()
	for i, iv := range s {
		if iv.End <= iv.Start || i > 0 && iv.Start <= s[i-1].End {
			t.Fatalf("not canonical at %d: %v", i, s)
		}
	}
}

func TestSetOpsMatchBitmap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 2000; iter++ {
		a, rawA := randSet(r)
		b, _ := randSet(r)
		ba, bb := toBits(a), toBits(b)
		var sum int64
		for _, iv := range rawA {
			sum += iv.Len()
		}
		if a.Len() > sum {
			t.Fatalf("union length %d > sum of lengths %d: %v", a.Len(), sum, rawA)
		}
		u, in, d := Union(a, b), Intersect(a, b), Subtract(a, b)
		for _, s := range []Set{u, in, d} {
			checkCanonical(t, s)
		}
		if got := Union(d, in); !slices.Equal(got, a) {
			t.Fatalf("(a−b) ∪ (a∩b) = %v, want a = %v", got, a)
		}
		if d.Len()+in.Len() != a.Len() || IntersectLen(a, b) != in.Len() {
			t.Fatalf("subtract+intersect lengths %d+%d != %d", d.Len(), in.Len(), a.Len())
		}
		bu, bi, bd := toBits(u), toBits(in), toBits(d)
		for x := range ba {
			if bu[x] != (ba[x] || bb[x]) || bi[x] != (ba[x] && bb[x]) || bd[x] != (ba[x] && !bb[x]) {
				t.Fatalf("at %d: a=%v b=%v union=%v inter=%v sub=%v", x, a, b, u, in, d)
			}
		}
		lo, hi := r.Int64N(200), r.Int64N(200)
		c := a.Clip(lo, hi)
		checkCanonical(t, c)
		if c.Len() != a.ClipLen(lo, hi) || c.Len() != IntersectLen(a, Set{{lo, hi}}) {
			t.Fatalf("clip %v to [%d,%d) = %v (len %d), ClipLen %d", a, lo, hi, c, c.Len(), a.ClipLen(lo, hi))
		}
	}
}

func TestNormalizeMergesTouching(t *testing.T) {
	got := Normalize([]Interval{{10, 20}, {0, 5}, {5, 8}, {15, 30}, {40, 40}, {50, 45}})
	want := Set{{0, 8}, {10, 30}}
	if !slices.Equal(got, want) {
		t.Fatalf("Normalize = %v, want %v", got, want)
	}
	if got.Len() != 28 {
		t.Fatalf("Len = %d, want 28", got.Len())
	}
}

// benchSets are two random sets of 10,000 intervals each.
func benchSets() (Set, Set) {
	r := rand.New(rand.NewPCG(3, 4))
	mk := func() Set {
		raw := make([]Interval, 10000)
		for i := range raw {
			s := r.Int64N(1e9)
			raw[i] = Interval{s, s + r.Int64N(1e5)}
		}
		return Normalize(raw)
	}
	return mk(), mk()
}

func BenchmarkUnion(b *testing.B) {
	x, y := benchSets()
	b.ResetTimer()
	for b.Loop() {
		_ = Subtract(Union(x, y), y)
	}
}

func BenchmarkIntersect(b *testing.B) {
	x, y := benchSets()
	b.ResetTimer()
	for b.Loop() {
		_ = Intersect(x, y)
	}
}

func BenchmarkIntersectLen(b *testing.B) {
	x, y := benchSets()
	b.ResetTimer()
	for b.Loop() {
		_ = IntersectLen(x, y)
	}
}

func TestGapBefore(t *testing.T) {
	s := Normalize([]Interval{{10, 20}, {30, 40}, {50, 60}})
	for _, c := range []struct{ t, want int64 }{
		{5, -1}, {10, -1}, {15, 0}, {20, 0}, {25, 5}, {30, 10}, {35, 0}, {50, 10}, {70, 10},
	} {
		if got := s.GapBefore(c.t); got != c.want {
			t.Errorf("GapBefore(%d) = %d, want %d", c.t, got, c.want)
		}
	}
}
