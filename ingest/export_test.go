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
