package pipeline

import (
	"github.com/tpptrace/tpptrace/analysis/measure"
	"github.com/tpptrace/tpptrace/ingest/model"
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
	for i := lo; i < hi; i++ {
		if t.Events.Kind[i] != model.KindComm || measure.AxisOf(t, i) != model.AxisPP {
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

// p2pOps turns markers into ops. Stages before the last read their
// next-stage traffic (a send to s+1 ends a forward, a recv from s+1 starts a
// backward); the last stage reads its previous-stage traffic (a recv from
// s−1 starts a forward, a send to s−1 ends a backward). The other end of
// each op is the neighbouring marker.
func p2pOps(ms []marker, g Geometry) []Op {
	last := g.Stage == g.P-1
	var ops []Op
	for k, m := range ms {
		toward := m.peerStage == g.Stage+1
		if last {
			toward = m.peerStage == g.Stage-1
		}
		if !toward {
			continue
		}
		ops = append(ops, markerOp(ms, k, last))
	}
	return ops
}

func markerOp(ms []marker, k int, last bool) Op {
	m := ms[k]
	prevEnd, nextStart := m.start, m.end
	if k > 0 {
		prevEnd = ms[k-1].end
	}
	if k+1 < len(ms) {
		nextStart = ms[k+1].start
	}
	op := Op{Micro: -1, Chunk: -1}
	switch {
	case m.send && !last: // forward output to the next stage
		op.Phase, op.Start, op.End = PhaseFwd, prevEnd, m.start
	case !m.send && !last: // gradient from the next stage
		op.Phase, op.Start, op.End = PhaseBwd, m.end, nextStart
	case !m.send: // activation from the previous stage
		op.Phase, op.Start, op.End = PhaseFwd, m.end, nextStart
	default: // gradient to the previous stage
		op.Phase, op.Start, op.End = PhaseBwd, prevEnd, m.start
	}
	op.End = max(op.End, op.Start)
	return op
}
