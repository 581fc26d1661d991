package profiler

import (
	"encoding/json"
	"io"

	"github.com/tpptrace/tpptrace/ingest/nccl"
)

// parseViews streams r and returns the communicator memberships its COLL
// and P2P begin events show, as profViews does of ParseProfiler's events,
// keeping one view per distinct membership and nothing per line.
func parseViews(r io.Reader, host string, maxMem int64) ([]nccl.CommView, []nccl.LineSkip, error) {
	var out []nccl.CommView
	var skips []nccl.LineSkip
	seen := map[nccl.CommView]bool{}
	// profLine is the event line as this reader needs it: the communicator
	// arguments only. The other fields are typed, and the type named, as
	// ParseProfiler's, so that the same lines are skipped for the same
	// reasons.
	type profLine struct {
		Name string      `json:"name"`
		Cat  string      `json:"cat"`
		Ph   string      `json:"ph"`
		ID   int64       `json:"id"`
		PID  int64       `json:"pid"`
		TS   json.Number `json:"ts"`
		Args viewArgs    `json:"args"`
	}
	err := nccl.EachLine(r, maxMem, func(n int64, text string) {
		var l profLine
		ok, skip := decodeLine(n, text, &l)
		if skip != nil {
			skips = append(skips, *skip)
		}
		if v, isView := lineView(l.Ph, l.Cat, l.PID, l.Args, host); ok && isView && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}, func(n int64) { skips = append(skips, nccl.LineSkip{Line: n, Reason: nccl.LongLine}) })
	return countMembers(out), skips, err
}

// viewArgs are the arguments a membership is read from.
type viewArgs struct {
	CommHash any `json:"CommHash"`
	Rank     any `json:"Rank"`
}

// lineView is the membership a begin event of a COLL or P2P shows.
func lineView(ph, cat string, pid int64, args viewArgs, host string) (nccl.CommView, bool) {
	if ph != "b" || cat != "COLL" && cat != "P2P" {
		return nccl.CommView{}, false
	}
	hash, ok := argUint(args.CommHash)
	rank, ok2 := argUint(args.Rank)
	if !ok || !ok2 {
		return nccl.CommView{}, false
	}
	return nccl.CommView{ID: nccl.HashKey(hash), Host: host, PID: pid, Rank: int32(rank), NRanks: -1}, true
}
