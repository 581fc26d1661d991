package source

import (
	"errors"
	"fmt"
	"runtime/metrics"
)

// ErrMemoryBudget is wrapped by the error of a read that passed
// Options.MaxMemory.
var ErrMemoryBudget = errors.New("memory budget exceeded")

// CheckMemory reports, when max is positive, whether the live heap as of
// the last garbage collection exceeds max bytes: an error wrapping
// ErrMemoryBudget with both figures. Readers call it every few thousand
// items; it costs a few hundred nanoseconds.
func CheckMemory(max int64) error {
	if max <= 0 {
		return nil
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return nil
	}
	if live := int64(s[0].Value.Uint64()); live > max {
		return fmt.Errorf("%w: %d MiB live where the budget is %d MiB (--max-memory)", ErrMemoryBudget, live>>20, max>>20)
	}
	return nil
}
