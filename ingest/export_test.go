package ingest

// SetShardEvents sets the events of a cold read's shard (LoadRankedCold)
// for a test; the returned func restores it.
func SetShardEvents(n int64) (restore func()) {
	old := shardEvents
	shardEvents = n
	return func() { shardEvents = old }
}

// BesideParses is how many groups of files beside a dataset were parsed
// so far (readBesideGroups), for a test that a read came from the cache.
func BesideParses() int64 { return besideParses.Load() }

// HoldBesideWrites holds the background writes of beside entries until
// release is called (which also restores the default).
func HoldBesideWrites() (release func()) {
	held := make(chan struct{})
	besideWriteStart = func() { <-held }
	return func() {
		besideWriteStart = func() {}
		close(held)
	}
}
