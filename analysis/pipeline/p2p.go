package pipeline

import (
	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/model"
)

// Geometry places a rank in the pipeline: its stage, the number of stages
// p and the stage of any rank (-1 when unknown).
type Geometry struct {
	Stage   int
	P       int
	StageOf func(rank int32) int
	Peers   map[int]Peer // event row → what MatchPeers learnt of a transfer without direction
}

// marker is one pipeline send or recv kernel of a rank.
type marker struct {
	send       bool
	peerStage  int
	start, end int64
}

// p2pMarkers lists rank r's PP send/recv kernels whose direction and peer
// are known, in start order.
func p2pMarkers(t *model.Trace, r int32, g Geometry) []marker {
	lo, hi := t.Events.RankRange(r)
	var out []marker
	for i := t.Events.NextKind(model.KindComm, lo, hi); i < hi; i = t.Events.NextKind(model.KindComm, i+1, hi) {
		if measure.AxisOf(t, i) != model.AxisPP {
			continue
		}
		send, peer, ok := direction(t, i, r)
		ps := -1
		if ok {
			ps = g.StageOf(peer)
		} else if m, found := g.Peers[i]; found {
			send, ps = m.Send, m.PeerStage
		}
		if ps >= 0 && ps != g.Stage {
			out = append(out, marker{send, ps, t.Events.Start[i], t.Events.Start[i] + t.Events.Dur[i]})
		}
	}
	return out
}

// direction returns whether event i of rank r sends, and its peer.
func direction(t *model.Trace, i int, r int32) (send bool, peer int32, ok bool) {
	c := t.Events.Coll[i]
	if c < 0 {
		return false, -1, false
	}
	op, peer := t.Colls.Op[c], t.Colls.Peer[c]
	if peer < 0 {
		peer = otherMember(t, t.Colls.Comm[c], r)
	}
	if peer < 0 || op != model.OpSend && op != model.OpRecv {
		return false, -1, false
	}
	return op == model.OpSend, peer, true
}

func otherMember(t *model.Trace, comm int32, r int32) int32 {
	if comm < 0 || int(comm) >= len(t.Comms) || len(t.Comms[comm].Members) != 2 {
		return -1
	}
	m := t.Comms[comm].Members
	if m[0] == r {
		return m[1]
	}
	if m[1] == r {
		return m[0]
	}
	return -1
}
