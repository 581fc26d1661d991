package ingest

// SetShardEvents sets the events of a cold read's shard (LoadRankedCold)
// for a test; the returned func restores it.
func SetShardEvents(n int64) (restore func()) {
	old := shardEvents
	shardEvents = n
	return func() { shardEvents = old }
}
