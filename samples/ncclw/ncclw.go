// Package ncclw writes a simulated job (samples.Job) as the NCCL outputs a
// real run would leave: one NCCL_DEBUG=INFO log per host with every rank's
// communicator Init lines and one COLL line per collective kernel, and NCCL
// Inspector JSON lines (format v4.0) per process with one record per
// collective. Communicator hashes are derived from the communicator IDs, so
// that both outputs and the logs agree.
package ncclw

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"

	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/samples"
)

// Version is the NCCL version the written files claim.
const Version = "2.27.7+cuda12.9"

// CommHash is the 64-bit hash written for communicator id.
func CommHash(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// commPtr is a per-process communicator pointer, as NCCL prints %p.
func commPtr(rank int32, comm int) string {
	return fmt.Sprintf("0x55%04x%06x", rank, 0x100*(comm+1)+0x90)
}

// WriteLog writes the INFO log lines of every rank on host.
func WriteLog(w io.Writer, job *samples.Job, host string) error {
	bw := bufio.NewWriter(w)
	t := job.Trace
	for _, r := range t.Ranks {
		if r.Host == host {
			writeRankLog(bw, t, r)
		}
	}
	return bw.Flush()
}

func prefix(r model.Rank, tid int64) string {
	return fmt.Sprintf("%s:%d:%d [%d] NCCL INFO ", r.Host, r.PID, tid, r.LocalGPU)
}

func writeRankLog(w *bufio.Writer, t *model.Trace, r model.Rank) {
	fmt.Fprintf(w, "%sNCCL version %s\n", prefix(r, r.PID), Version)
	for i, c := range withWorld(t) {
		me := memberIndex(c, r.Rank)
		if me < 0 {
			continue
		}
		p := prefix(r, r.PID+1)
		head := fmt.Sprintf("ncclCommInitRankConfig comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %x commId 0x%x",
			commPtr(r.Rank, i-1), me, len(c.Members), r.LocalGPU, r.LocalGPU, busID(r.LocalGPU), CommHash(c.ID))
		fmt.Fprintf(w, "%s%s - Init START\n", p, head)
		fmt.Fprintf(w, "%scomm %s rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0\n",
			p, commPtr(r.Rank, i-1), me, len(c.Members), nodes(t, c), localRanks(t, c, r.Host), localRank(t, c, r))
		fmt.Fprintf(w, "%s%s - Init COMPLETE\n", p, head)
	}
	writeColls(w, t, r)
}

// WorldID is the ID of the default process group's communicator, which
// PyTorch creates on every rank before any other.
const WorldID = "default_pg"

// withWorld lists the world communicator (index -1 in pointers) and then
// the trace's communicators, so that the log maps comm ranks to global ranks.
func withWorld(t *model.Trace) []model.Communicator {
	all := make([]int32, len(t.Ranks))
	for i, r := range t.Ranks {
		all[i] = r.Rank
	}
	return append([]model.Communicator{{ID: WorldID, Members: all}}, t.Comms...)
}

func busID(dev int32) int64 { return int64(0x1b+0x10*dev) << 12 }

func memberIndex(c model.Communicator, r int32) int {
	for i, m := range c.Members {
		if m == r {
			return i
		}
	}
	return -1
}
