package nccl

import "testing"

// TestViewsTraceRepeatedWorldViews: a process seen several times in the
// world communicator (one view per record, as Inspector files give) still
// gets its other communicators; only a process holding two different world
// ranks is ambiguous.
func TestViewsTraceRepeatedWorldViews(t *testing.T) {
	var views []CommView
	for pid := int64(0); pid < 4; pid++ {
		for range 3 { // three records of the world communicator
			views = append(views, CommView{ID: "world", Name: "world", Host: "h", PID: pid, Rank: int32(pid), NRanks: 4})
		}
		tp := []string{"tp0", "tp1"}[pid/2]
		views = append(views, CommView{ID: tp, Name: tp, Host: "h", PID: pid, Rank: int32(pid % 2), NRanks: 2})
	}
	tr := ViewsTrace(views, "nccl-inspector", nil)
	if len(tr.Ranks) != 4 {
		t.Fatalf("%d ranks, want 4", len(tr.Ranks))
	}
	members := map[string][]int32{}
	for _, c := range tr.Comms {
		members[c.ID] = c.Members
	}
	for id, want := range map[string][]int32{"tp0": {0, 1}, "tp1": {2, 3}} {
		if got := members[id]; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("%s has members %v, want %v", id, got, want)
		}
	}
}
