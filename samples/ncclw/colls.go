package ncclw

import (
	"bufio"
	"fmt"

	"github.com/tpptrace/tpptrace/model"
)

// ncclOps are the names NCCL prints on COLL lines.
var ncclOps = map[model.Op]string{
	model.OpAllReduce: "AllReduce", model.OpAllGather: "AllGather", model.OpReduceScatter: "ReduceScatter",
	model.OpBroadcast: "Broadcast", model.OpReduce: "Reduce", model.OpAllToAll: "AlltoAll",
	model.OpSend: "Send", model.OpRecv: "Recv", model.OpSendRecv: "Send",
}

// writeColls writes one COLL line per collective kernel of rank r, in time
// order. Counts are per rank in bf16 elements (datatype 9).
func writeColls(w *bufio.Writer, t *model.Trace, r model.Rank) {
	ev := &t.Events
	lo, hi := ev.RankRange(r.Rank)
	var op uint64
	for i := lo; i < hi; i++ {
		c := ev.Coll[i]
		if ev.Kind[i] != model.KindComm || c < 0 || t.Colls.Comm[c] < 0 {
			continue
		}
		comm := t.Colls.Comm[c]
		name := ncclOps[t.Colls.Op[c]]
		if name == "" {
			name = "AllReduce"
		}
		root := 0
		if p := t.Colls.Peer[c]; p >= 0 {
			root = memberIndex(t.Comms[comm], p)
		}
		fmt.Fprintf(w, "%s%s: opCount %x sendbuff 0x7f0000000 recvbuff 0x7f4000000 count %d datatype 9 op 0 root %d comm %s [nranks=%d] stream 0x55aa%04x\n",
			prefix(r, r.PID), name, op, max(t.Colls.Bytes[c], 0)/2, root, commPtr(r.Rank, int(comm)), len(t.Comms[comm].Members), ev.Stream[i])
		op++
	}
}

func nodes(t *model.Trace, c model.Communicator) int {
	hosts := map[string]bool{}
	for _, m := range c.Members {
		if i := t.FindRank(m); i >= 0 {
			hosts[t.Ranks[i].Host] = true
		}
	}
	return len(hosts)
}

func localRanks(t *model.Trace, c model.Communicator, host string) int {
	n := 0
	for _, m := range c.Members {
		if i := t.FindRank(m); i >= 0 && t.Ranks[i].Host == host {
			n++
		}
	}
	return n
}

func localRank(t *model.Trace, c model.Communicator, r model.Rank) int {
	n := 0
	for _, m := range c.Members {
		if m == r.Rank {
			return n
		}
		if i := t.FindRank(m); i >= 0 && t.Ranks[i].Host == r.Host {
			n++
		}
	}
	return n
}
