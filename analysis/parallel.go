package analysis

import "runtime"

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
