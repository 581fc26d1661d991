package nsys

import "fmt"

// Limits on the times of an export, so that no later arithmetic (session
// start + row time, minus the earliest session start, plus a duration)
// overflows int64: a hostile or corrupt file is rejected, with its reason,
// instead of wrapping every rank's clock (docs/limits.md).
const (
	maxSessionNs = 1 << 62 // a session start after the epoch: before the year 2116
	minAbsNs     = -1 << 59
	maxAbsNs     = 1 << 62 // session start + row time
	maxDurNs     = 1 << 59 // about 18 years
)

// checkSession rejects a session start outside [0, 2^62) ns after the epoch.
func checkSession(ns int64) error {
	if ns < 0 || ns >= maxSessionNs {
		return fmt.Errorf("TARGET_INFO_SESSION_START_TIME.utcEpochNs %d is outside [0, 2^62): the file is corrupt", ns)
	}
	return nil
}

// span returns base + start and the duration of a row, recording the first
// row whose times leave the limits (the file is then rejected).
func (b *builder) span(start, end int64) (int64, int64) {
	inRange := start >= minAbsNs-b.base && start <= maxAbsNs-b.base
	ok := inRange && end <= start+maxDurNs // a negative duration is clamped to 0, as before
	if !ok {
		if b.badTime == nil {
			b.badTime = fmt.Errorf("a row's start %d / end %d with session start %d overflows the time range [-2^59, 2^62] ns (durations up to 2^59): the file is corrupt", start, end, b.base)
		}
		return 0, 0
	}
	if end < start {
		b.skipRows["row ending before it starts: duration set to 0"]++
		return b.base + start, 0
	}
	return b.base + start, end - start
}

// instant checks a row time the same way and returns it as read.
func (b *builder) instant(t int64) int64 {
	b.span(t, t)
	return t
}
