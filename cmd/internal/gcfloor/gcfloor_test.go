package gcfloor

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestPercent: below the floor the goal is the floor; above it, the
// percentage as given; Go's 4 MiB minimum stands in for a smaller heap.
func TestPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 1500},       // 4 MiB minimum: 64/4 = 16× the heap
		{1 * mib, 1500}, // the same
		{8 * mib, 700},  // goal 64 MiB
		{32 * mib, 100},
		{40 * mib, 60},
		{43 * mib, 50}, // 43 × 1.5 = 64.5 ≥ 64
		{64 * mib, 50},
		{1 << 40, 50},
	} {
		got := Percent(50, 64*mib, c.live)
		if got != c.want {
			t.Errorf("Percent(50, 64 MiB, %d MiB) = %d, want %d", c.live/mib, got, c.want)
		}
		if goal := max(c.live, 4*mib) * uint64(100+got) / 100; goal < 64*mib-4*mib/100 && got != maxPercent {
			t.Errorf("live %d MiB: goal %d MiB under the floor", c.live/mib, goal/mib)
		}
	}
	if got := Percent(50, 1<<50, 0); got != maxPercent {
		t.Errorf("a huge floor: %d, want the bound %d", got, maxPercent)
	}
}

// TestStartSkipsSmallCollections: allocating 24 MiB of short-lived
// garbage collects at most once with a 64 MiB floor, where GOGC=50 alone
// collects many times; lowered (Lower), the tuner sets GOGC=50 at once and
// after each collection (a count of collections here depended on how fast
// the collector's goroutines ran beside other tests: 2 of 4 once in CI);
// and past the floor the tuner hands GOGC back.
func TestStartSkipsSmallCollections(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	count := func() uint32 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.NumGC
		churn(24 << 20)
		runtime.ReadMemStats(&ms)
		return ms.NumGC - before
	}
	debug.SetGCPercent(50)
	Lower(0) // no tuner yet: nothing changes
	if got := debug.SetGCPercent(50); got != 50 {
		t.Fatalf("Lower without a tuner set GOGC to %d", got)
	}
	plain := count()
	Start(50, 64<<20)
	floored := count()
	if plain < 4 || floored > 1 {
		t.Errorf("collections while allocating 24 MiB: GOGC=50 %d (want ≥ 4), with the floor %d (want ≤ 1)", plain, floored)
	}
	Lower(1 << 20) // a budget of 2 MiB: GOGC=50 as without a floor
	if got := debug.SetGCPercent(50); got != 50 {
		t.Errorf("GOGC with the floor lowered to 1 MiB: %d, want 50", got)
	}
	runtime.GC()
	runtime.GC() // the tuner's finalizer ran after the first, with the lowered floor
	if got := debug.SetGCPercent(50); got != 50 {
		t.Errorf("GOGC after collections with the floor lowered to 1 MiB: %d, want 50", got)
	}
	keep := make([][]byte, 0, 1<<10)
	for range 100 {
		keep = append(keep, make([]byte, 1<<20)) // 100 MiB live: past the floor
	}
	runtime.GC()
	runtime.GC() // the finalizer of the first ran before the second
	if got := debug.SetGCPercent(50); got != 50 {
		t.Errorf("GOGC with %d MiB live: %d, want 50", len(keep), got)
	}
	runtime.KeepAlive(keep)
}

var sink []byte

// churn allocates n bytes in 64 KiB pieces, each garbage at once.
func churn(n int) {
	for range n >> 16 {
		sink = make([]byte, 64<<10)
	}
}
