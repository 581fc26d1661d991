package source

import (
	"context"
	"runtime"
	"sync"
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
	go o.launch(ctx, read)
	err := o.consume(use)
	o.finish()
	return err
}

// ordered is InOrder's state: one buffered result channel a file, the
// slots of the files in flight, and what stops and waits for the launcher.
type ordered[T any] struct {
	done     []chan result[T]
	slots    chan struct{}
	stop     chan struct{}
	launched chan struct{}
	reads    sync.WaitGroup
}

// result is one file's read.
type result[T any] struct {
	v   T
	err error
}

// newOrdered makes the state of a loop over n files, workers at a time.
func newOrdered[T any](n, workers int) *ordered[T] {
	o := &ordered[T]{done: make([]chan result[T], n), slots: make(chan struct{}, workers),
		stop: make(chan struct{}), launched: make(chan struct{})}
	for i := range o.done {
		o.done[i] = make(chan result[T], 1)
	}
	return o
}

// launch starts the reads in file order, each once a slot is free, until
// every file is started or the loop stops.
func (o *ordered[T]) launch(ctx context.Context, read func(int) (T, error)) {
	defer close(o.launched)
	for i := range o.done {
		select {
		case o.slots <- struct{}{}:
		case <-o.stop:
			return
		}
		o.reads.Add(1)
		go func() {
			defer o.reads.Done()
			if err := ctx.Err(); err != nil {
				o.done[i] <- result[T]{err: err}
				return
			}
			v, err := read(i)
			o.done[i] <- result[T]{v: v, err: err}
		}()
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

// finish stops the launcher and waits for it and for the reads it started.
func (o *ordered[T]) finish() {
	close(o.stop)
	<-o.launched
	o.reads.Wait()
}
