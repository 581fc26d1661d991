// Package ncclw writes a simulated job (samples.Job) as the NCCL outputs a
// real run would leave: one NCCL_DEBUG=INFO log per host with every rank's
// communicator Init lines, PyTorch's "ProcessGroupNCCL created ncclComm_"
// lines (TORCH_CPP_LOG_LEVEL=INFO) and one COLL line per collective kernel,
// and NCCL Inspector JSON lines (format v4.0, optionally verbose) per
// process with one record per collective. Communicator hashes are derived
// from the communicator IDs as samples/nsysw derives them, so that the logs,
// the Inspector records and nsys exports of one job agree.
package ncclw

import (
	"bufio"
	"fmt"
	"io"

	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
	"github.com/tpptrace/tpptrace/samples/nsysw"
)

// Version is the NCCL version the written files claim.
const Version = "2.27.7+cuda12.9"

// CommHash is the 64-bit hash written for communicator id, the one
// samples/nsysw writes as "NCCL communicator ID".
func CommHash(id string) uint64 { return nsysw.CommHash(id) }

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
	comms, first := withWorld(t)
	local := 0
	for i, c := range comms {
		me := memberIndex(c, r.Rank)
		if me < 0 {
			continue
		}
		ptr := commPtr(r.Rank, i+first)
		p := prefix(r, r.PID+1)
		head := fmt.Sprintf("ncclCommInitRankConfig comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %x commId 0x%x",
			ptr, me, len(c.Members), r.LocalGPU, r.LocalGPU, busID(r.LocalGPU), CommHash(c.ID))
		fmt.Fprintf(w, "%s%s - Init START\n", p, head)
		fmt.Fprintf(w, "%scomm %s rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0\n",
			p, ptr, me, len(c.Members), nodes(t, c), localRanks(t, c, r.Host), localRank(t, c, r))
		fmt.Fprintf(w, "%s%s - Init COMPLETE\n", p, head)
		if i+first >= 0 {
			writePGLine(w, r, c, local, me, ptr)
			local++
		}
	}
	writeColls(w, t, r)
}

// writePGLine writes the glog line PyTorch's ProcessGroupNCCL prints
// (TORCH_CPP_LOG_LEVEL=INFO) when it has created a communicator: the join
// between the process-group name and NCCL's comm pointer.
func writePGLine(w *bufio.Writer, r model.Rank, c model.Communicator, local, me int, ptr string) {
	desc := ""
	if c.Desc != "" && c.Desc != "undefined" {
		desc = "(" + c.Desc + ")"
	}
	fmt.Fprintf(w, "I0101 00:00:00.000000 %d ProcessGroupNCCL.cpp:2183] [PG ID %d PG GUID %s%s Rank %d] ProcessGroupNCCL created ncclComm_ %s on CUDA device: %d\n",
		r.PID, local, c.Name, desc, me, ptr, r.LocalGPU)
}

// WorldID is the ID of the world communicator written when the trace has
// no communicator spanning every rank (PyTorch's default group is one).
const WorldID = "default_pg"

// withWorld lists the trace's communicators, preceded by a world
// communicator when none spans every rank, so that the log maps comm ranks
// to global ranks; first is the pointer index of the first entry.
func withWorld(t *model.Trace) (comms []model.Communicator, first int) {
	for _, c := range t.Comms {
		if len(c.Members) == len(t.Ranks) {
			return t.Comms, 0
		}
	}
	all := make([]int32, len(t.Ranks))
	for i, r := range t.Ranks {
		all[i] = r.Rank
	}
	return append([]model.Communicator{{ID: WorldID, Members: all}}, t.Comms...), -1
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
