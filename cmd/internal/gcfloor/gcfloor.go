// Package gcfloor runs the collector at a GOGC percentage with a floor
// under the heap goal: the heap may grow to at least floor bytes before a
// collection, and past that percent more than was live at the last one.
//
// Go's own floor is 4 MiB × GOGC/100 (2 MiB at the binary's GOGC=50), so a
// process whose heap grows from nothing to tens of MiB collects dozens of
// times on the way (50 collections in a cold analyze of the 64-rank job,
// most of them under 20 MiB live). With a floor the small heaps are not
// collected at all, and the large ones exactly as before: the goal is
// max(floor, live × (1 + percent/100)), so the peak grows only for a heap
// whose goal would stay under the floor, and then to the floor at most.
// Floors are meant in MiB to GiB (under a PiB: the arithmetic is in
// uint64).
package gcfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// liveMetric is the heap marked live by the last collection.
const liveMetric = "/gc/heap/live:bytes"

// maxPercent bounds the percentage Percent gives a nearly empty heap.
const maxPercent = 1 << 20

// Percent is the GOGC that makes the next heap goal max(floor, live ×
// (1 + percent/100)): percent itself once live × (1 + percent/100)
// reaches the floor, more below it. Go's own minimum goal (4 MiB ×
// GOGC/100) is what a live heap of under 4 MiB gets instead of live.
func Percent(percent int, floor, live uint64) int {
	live = max(live, 4<<20)
	if live*uint64(100+percent) >= floor*100 {
		return percent
	}
	return int(min(floor*100/live-100, maxPercent))
}

// Start sets GOGC to Percent of the heap now and again after every
// collection (from a finalizer that each collection runs and that re-arms
// itself), for the life of the process.
func Start(percent int, floor uint64) {
	t := &tuner{percent: percent, floor: floor, sample: []metrics.Sample{{Name: liveMetric}}}
	mu.Lock()
	active = t
	mu.Unlock()
	t.adjust()
	t.arm()
}

// Lower brings the floor of the tuner Start started down to at most max
// (none started: nothing to do). A --max-memory budget lowers it to half
// the budget: the live heap a budget is checked against is what the last
// collection marked, and under the floor no collection marks anything.
func Lower(max uint64) {
	mu.Lock()
	t := active
	mu.Unlock()
	if t == nil {
		return
	}
	t.mu.Lock()
	t.floor = min(t.floor, max)
	t.mu.Unlock()
	t.adjust()
}

var (
	mu     sync.Mutex
	active *tuner // the tuner Start started, nil before
)

type tuner struct {
	percent int
	mu      sync.Mutex // guards floor and sample, from Lower and the finalizer
	floor   uint64
	sample  []metrics.Sample
}

// sentinel is the object whose finalizer runs once per collection; it is
// larger than the tiny allocator's 16 bytes, whose objects may never be
// finalized.
type sentinel struct{ _ [32]byte }

// arm allocates a sentinel that the next collection finds unreachable.
func (t *tuner) arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		t.adjust()
		t.arm()
	})
}

// adjust sets GOGC for the live heap the last collection marked.
func (t *tuner) adjust() {
	t.mu.Lock()
	defer t.mu.Unlock()
	metrics.Read(t.sample)
	var live uint64
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		live = t.sample[0].Value.Uint64()
	}
	debug.SetGCPercent(Percent(t.percent, t.floor, live))
}
