package pipeline_test

import (
	"testing"

	"github.com/tpptrace/tpptrace/analysis/pipeline"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

// TestMatchPeersRecoversDirections strips the direction and peer of every
// PP kernel of a simulated job and checks that cross-rank matching on the
// true clock offsets recovers the peer stage and direction of (almost)
// every one.
func TestMatchPeersRecoversDirections(t *testing.T) {
	for _, name := range []string{"default", "balanced-gpipe", "interleaved", "slow-rank"} {
		cfg, _ := samples.Lookup(name)
		job, err := samples.Simulate(cfg)
		if err != nil {
			t.Fatal(err)
		}
		tr := job.Trace
		type want struct {
			send  bool
			stage int
		}
		truth := map[int]want{}
		for i := range tr.Events.Len() {
			c := tr.Events.Coll[i]
			if c < 0 || !tr.Colls.Op[c].PointToPoint() {
				continue
			}
			truth[i] = want{tr.Colls.Op[c] == model.OpSend, cfg.Place(int(tr.Colls.Peer[c])).PP}
			tr.Colls.Op[c], tr.Colls.Peer[c], tr.Colls.Comm[c] = model.OpSendRecv, -1, -1
		}
		for k := range tr.Ranks {
			p := cfg.Place(int(tr.Ranks[k].Rank))
			tr.Ranks[k].Coord = model.Coord{TP: int32(p.TP), PP: int32(p.PP), DP: int32(p.DP), CP: int32(p.CP), EP: int32(p.EP)}
		}
		off := func(r int32) int64 { return job.Truth.Ranks[r].ClockOffsetNs }
		got := pipeline.MatchPeers(tr, cfg.PP, func(r int32) int { return cfg.Place(int(r)).PP }, off)
		badStage, badDir := 0, 0
		for i, w := range truth {
			g, ok := got[i]
			if !ok || g.PeerStage != w.stage {
				badStage++
			} else if g.Send != w.send {
				badDir++
			}
		}
		t.Logf("%s: %d transfers, %d wrong or unmatched peer, %d wrong direction", name, len(truth), badStage, badDir)
		if badStage > len(truth)/50 {
			t.Errorf("%s: %d of %d transfers matched to the wrong stage", name, badStage, len(truth))
		}
	}
}
