package source

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
)

// TestInOrderUses: every file is used once, in order, whatever order the
// reads end in, and never more than workers are read and not yet used.
func TestInOrderUses(t *testing.T) {
	for _, workers := range []int{1, 3, 0} {
		var open, most atomic.Int32
		var got []int
		err := InOrder(context.Background(), 50, workers, func(i int) (int, error) {
			n := open.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			return i * i, nil
		}, func(i, v int) error {
			if v != i*i {
				return fmt.Errorf("file %d: got %d", i, v)
			}
			open.Add(-1)
			got = append(got, i)
			return nil
		})
		if err != nil || len(got) != 50 || !slices.IsSorted(got) {
			t.Fatalf("workers %d: %v, used %v", workers, err, got)
		}
		if w := int32(workers); w > 0 && most.Load() > w {
			t.Errorf("workers %d: %d files read and not used at once", workers, most.Load())
		}
	}
}

// TestInOrderFirstError: the error returned is the first in file order
// (file 1's, though file 3 fails before it ends), after the files before
// it are used and none after.
func TestInOrderFirstError(t *testing.T) {
	third := make(chan struct{})
	var used []int
	err := InOrder(context.Background(), 6, 4, func(i int) (int, error) {
		switch i {
		case 1:
			<-third
			return 0, errors.New("bad 1")
		case 3:
			defer close(third)
			return 0, errors.New("bad 3")
		}
		return i, nil
	}, func(i, _ int) error { used = append(used, i); return nil })
	if err == nil || err.Error() != "bad 1" || !slices.Equal(used, []int{0}) {
		t.Fatalf("got %v, used %v; want bad 1 after file 0", err, used)
	}
}

// TestInOrderUseError: use's error ends the loop as a read's does, and a
// cancelled context is the error of the files read after.
func TestInOrderUseError(t *testing.T) {
	err := InOrder(context.Background(), 5, 2, func(i int) (int, error) { return i, nil },
		func(i, _ int) error {
			if i == 2 {
				return errors.New("use 2")
			}
			return nil
		})
	if err == nil || err.Error() != "use 2" {
		t.Fatalf("got %v, want use 2", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = InOrder(ctx, 5, 2, func(i int) (int, error) { return i, nil }, func(int, int) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}
