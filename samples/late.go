package samples

// lateOp reports whether op o of rank r is a DP collective that the late
// rank's host launches late (Config.LateRank, LateNs).
func (s *sim) lateOp(r int, o *op) bool {
	return s.cfg.LateNs > 0 && r == s.cfg.LateRank && o.class == classDP
}

// stall holds the late rank's host before op o: it waits for every op
// launched so far to end (a host synchronisation), then stalls LateNs
// (data loading, logging), and returns o's new earliest start. It reports
// false while an op launched before has no known end.
func (s *sim) stall(st *rankState, o *op) (int64, bool) {
	var drained int64
	for _, d := range st.last {
		if d < 0 {
			continue
		}
		if st.end[d] < 0 {
			return 0, false
		}
		drained = max(drained, st.end[d])
	}
	st.cpu = max(st.cpu, drained) + s.cfg.LateNs
	st.stalled = true
	return s.ready(st, o)
}
