// Package par runs the analysis's data-parallel loops on every core: each
// call returns once all its work is done, and each piece of work writes
// only its own slots, so results never depend on the schedule.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Blocks calls f on [0, n) cut into about equal blocks, one goroutine per
// core, and returns once all are done; f must write only its block's slots.
// Below minBlock items it calls f(0, n) alone.
func Blocks(n, minBlock int, f func(lo, hi int)) {
	size := max(minBlock, (n+runtime.GOMAXPROCS(0)-1)/max(runtime.GOMAXPROCS(0), 1))
	if n <= size {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += size {
		wg.Go(func() { f(lo, min(lo+size, n)) })
	}
	wg.Wait()
}

// Each calls f(0) .. f(n-1) on every core, each goroutine taking the next
// index as it finishes one, and returns once all are done; f must write
// only its own index's slots. On one core it calls them in order.
func Each(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}
