package source

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// InOrder is a loop over files 0..n-1 that reads them on up to workers
// goroutines (0: GOMAXPROCS) and uses them in order: read(i) runs on any
// goroutine, use(i, v) on the caller's, for i = 0, 1, ... in turn, so that
// what use builds, warns and returns is what the one-goroutine loop gives.
// A file's slot is freed once it is used, so at most workers files are
// read or waiting at once (what a reader holds of them, on top of the
// loop's). The first error in file order, of read, of use, or of ctx
// (checked before each read), ends the loop and is returned: the files
// being read are waited for, and no other starts.
func InOrder[T any](ctx context.Context, n, workers int, read func(i int) (T, error), use func(i int, v T) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	o := newOrdered[T](n, workers)
	for range min(workers, n) {
		o.workers.Add(1)
		go o.work(ctx, read)
	}
	err := o.consume(use)
	close(o.stop)
	o.workers.Wait()
	return err
}

// ordered is InOrder's state: one buffered result channel a file, the
// slots of the files in flight, the next file to read, and what stops and
// waits for the workers. A worker takes the next file itself once it holds
// a slot, so files start in order with no goroutine between: a launcher
// handing each file to a worker (a wake-up more a file) made 512 dumps of
// 4 KB about 40 ms slower to read than the loop on one goroutine.
type ordered[T any] struct {
	done    []chan result[T]
	slots   chan struct{}
	next    atomic.Int64
	stop    chan struct{}
	workers sync.WaitGroup
}

// result is one file's read.
type result[T any] struct {
	v   T
	err error
}

// newOrdered makes the state of a loop over n files, workers at a time.
func newOrdered[T any](n, workers int) *ordered[T] {
	o := &ordered[T]{done: make([]chan result[T], n), slots: make(chan struct{}, workers), stop: make(chan struct{})}
	for i := range o.done {
		o.done[i] = make(chan result[T], 1)
	}
	return o
}

// work reads the next file each time a slot is free, until every file is
// taken or the loop stops.
func (o *ordered[T]) work(ctx context.Context, read func(int) (T, error)) {
	defer o.workers.Done()
	for o.claim() {
		i := int(o.next.Add(1) - 1)
		if i >= len(o.done) {
			<-o.slots
			return
		}
		if err := ctx.Err(); err != nil {
			o.done[i] <- result[T]{err: err}
			continue
		}
		v, err := read(i)
		o.done[i] <- result[T]{v: v, err: err}
	}
}

// claim waits for a free slot and takes it; false once the loop stops.
func (o *ordered[T]) claim() bool {
	select {
	case o.slots <- struct{}{}:
	case <-o.stop:
		return false
	}
	select {
	case <-o.stop:
		<-o.slots
		return false
	default:
		return true
	}
}

// consume uses the files in order, freeing each one's slot after, and
// returns the first error.
func (o *ordered[T]) consume(use func(int, T) error) error {
	for i, ch := range o.done {
		r := <-ch
		err := r.err
		if err == nil {
			err = use(i, r.v)
		}
		<-o.slots
		if err != nil {
			return err
		}
	}
	return nil
}
