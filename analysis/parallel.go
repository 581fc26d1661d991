package analysis

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallel calls f(0) .. f(n-1) on every core and returns once all are
// done. Each f must touch only its own index's state: the per-rank steps
// write their slot of a slice, and results are read in index order, so the
// Result does not depend on the schedule.
func parallel(n int, f func(i int)) {
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

// apart starts f on another goroutine and returns the function that waits
// for it. The caller reads what f writes only after waiting, and f must not
// read what the caller writes meanwhile. On one core it runs f at once, so
// GOMAXPROCS=1 is the serial order the tests hold the concurrent one to.
func apart(f func()) (wait func()) {
	if runtime.GOMAXPROCS(0) <= 1 {
		f()
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	return func() { <-done }
}
