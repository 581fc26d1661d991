// Package par runs the analysis's data-parallel loops on every core: each
// call returns once all its work is done, and each piece of work writes
// only its own slots, so results never depend on the schedule.
package par

import (
	"runtime"
	"sync"
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
