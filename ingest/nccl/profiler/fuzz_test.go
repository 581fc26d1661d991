package profiler

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/nccl"
)

func FuzzParseProfiler(f *testing.F) {
	f.Add(`{"name": "Send", "cat": "P2P", "ph": "b", "id": 0, "pid": 1, "tid": 1, "ts": 1.5, "args": {"CommHash": 12715772615376301750, "Rank": 0, "Peer": 1, "Datatype": ncclFloat32}},`)
	f.Fuzz(func(t *testing.T, s string) {
		evs, skips, err := ParseProfiler(strings.NewReader(s))
		if err == nil {
			_ = nccl.ViewsTrace(profViews(evs, ""), "nccl-profiler", nil).Validate()
		}
		// The streaming reader sees what the event list shows.
		views, vskips, verr := parseViews(strings.NewReader(s), "", 0)
		if (err == nil) != (verr == nil) || !reflect.DeepEqual(views, profViews(evs, "")) || len(vskips) != len(skips) {
			t.Fatalf("streamed %v %d skips %v, listed %v %d skips %v", views, len(vskips), verr, profViews(evs, ""), len(skips), err)
		}
	})
}
