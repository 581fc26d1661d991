package nsys

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/nsysw"
)

// TestRealDialectCommunicators: a TP2 PP4 DP2 job written as plain nsys
// records it (ncclCommInitRankConfig + ncclCommSplit, or no creation at
// all: a capture started after init) reads back with every communicator's
// members and every p2p kernel's global peer as simulated.
func TestRealDialectCommunicators(t *testing.T) {
	cfg, err := samples.Lookup("default")
	if err != nil {
		t.Fatal(err)
	}
	job, err := samples.Simulate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := p2pPeers(job.Trace)
	for _, noInit := range []bool{false, true} {
		t.Run(fmt.Sprintf("noInit=%v", noInit), func(t *testing.T) {
			got, _ := writeAndRead(t, job.Trace, nsysw.Options{Dialect: nsysw.DialectReal, NoCommInit: noInit}, source.Options{})
			if g := p2pPeers(got); !maps.Equal(g, want) {
				t.Errorf("p2p (rank, op, peer) counts differ:\n got %v\nwant %v", g, want)
			}
			if g, w := memberSets(got), memberSets(job.Trace); !slices.Equal(g, w) {
				t.Errorf("communicators with traffic:\n got %v\nwant %v", g, w)
			}
		})
	}
}

func p2pPeers(tr *model.Trace) map[string]int {
	out := map[string]int{}
	for i := 0; i < tr.Events.Len(); i++ {
		if c := tr.Events.Coll[i]; tr.Events.Kind[i] == model.KindComm && c >= 0 && tr.Colls.Op[c].PointToPoint() {
			out[fmt.Sprintf("%d %s %d", tr.Events.Rank[i], tr.Colls.Op[c], tr.Colls.Peer[c])]++
		}
	}
	return out
}

// memberSets lists the member sets of the communicators kernels used.
func memberSets(tr *model.Trace) []string {
	seen := map[string]bool{}
	for i := 0; i < tr.Events.Len(); i++ {
		if c := tr.Events.Coll[i]; tr.Events.Kind[i] == model.KindComm && c >= 0 && tr.Colls.Comm[c] >= 0 {
			seen[fmt.Sprint(tr.Comms[tr.Colls.Comm[c]].Members)] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
