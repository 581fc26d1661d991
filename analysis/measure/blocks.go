package measure

import (
	"runtime"
	"sync"
)

// blocks calls f on [0, n) cut into about equal blocks, one goroutine per
// core, and returns once all are done; f must write only its block's slots.
// Below minBlock items it calls f(0, n) alone.
func blocks(n, minBlock int, f func(lo, hi int)) {
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
