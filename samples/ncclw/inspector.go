package ncclw

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

// InspectorOptions choose what the Inspector records hold.
type InspectorOptions struct {
	// Verbose adds event_trace_sn and event_trace_ts inside the perf
	// object (NCCL_INSPECTOR_DUMP_VERBOSE=1): the operation's and its
	// kernel's start and stop on the rank's host clock, wall-clock µs.
	Verbose bool
	// CommNames writes comm_name as a framework that sets NCCL's
	// config.commName would ("TP Group 0"); else "unknown".
	CommNames bool
}

// MinBytes is NCCL_INSPECTOR_DUMP_MIN_SIZE_BYTES's default: smaller
// operations are not recorded.
const MinBytes = 8192

// InspectorFile is the file the Inspector plugin writes for a process.
func InspectorFile(host string, pid int64) string { return fmt.Sprintf("%s-pid%d.log", host, pid) }

// WriteInspector writes rank's Inspector records (format v4.0: full context
// on every line), one per collective or p2p kernel of at least MinBytes.
func WriteInspector(w io.Writer, job *samples.Job, rank int32, opts InspectorOptions) error {
	bw := bufio.NewWriter(w)
	t := job.Trace
	i := t.FindRank(rank)
	if i < 0 {
		return fmt.Errorf("inspector: rank %d is not in the job", rank)
	}
	var names map[int32]string
	if opts.CommNames {
		names = commNames(job)
	}
	seqs := map[[2]int32]int64{}
	lo, hi := t.Events.RankRange(rank)
	for e := lo; e < hi; e++ {
		c := t.Events.Coll[e]
		if t.Events.Kind[e] != model.KindComm || c < 0 || t.Colls.Comm[c] < 0 || inspectorMsg(t, c) < MinBytes {
			continue
		}
		k := [2]int32{t.Colls.Comm[c], int32(t.Colls.Op[c])}
		writeRecord(bw, job, t.Ranks[i], e, seqs[k], names, opts.Verbose)
		seqs[k]++
	}
	return bw.Flush()
}

// inspectorMsg is the message size the Inspector records for collective c:
// count × type size per rank, the send count for AllGather and the receive
// count (1/n of the input) for ReduceScatter.
func inspectorMsg(t *model.Trace, c int32) int64 {
	b := t.Colls.Bytes[c]
	if n := int64(len(t.Comms[t.Colls.Comm[c]].Members)); t.Colls.Op[c] == model.OpReduceScatter && n > 0 {
		return b / n
	}
	return b
}

// writeRecord writes one record line: exec time in whole µs as NCCL prints
// it; in verbose mode the event trace inside the perf object, as NCCL's
// inspector_json.cc writes it.
func writeRecord(w *bufio.Writer, job *samples.Job, r model.Rank, e int, sn int64, names map[int32]string, verbose bool) {
	t := job.Trace
	x := t.Colls.At(int(t.Events.Coll[e]))
	comm := t.Comms[x.Comm]
	name := names[x.Comm]
	if name == "" {
		name = "unknown"
	}
	fmt.Fprintf(w, `{"header":{"id":"0x%x","comm_name":%q,"rank":%d,"n_ranks":%d,"nnodes":%d},`,
		CommHash(comm.ID), name, memberIndex(comm, r.Rank), len(comm.Members), nodes(t, comm))
	fmt.Fprintf(w, `"metadata":{"inspector_output_format_version":"v4.0","git_rev":"","rec_mechanism":"nccl_profiler_interface","dump_timestamp_us":%d,"hostname":%q,"pid":%d},`,
		(r.ClockBase+t.Events.Start[e]+t.Events.Dur[e])/1000+1000, r.Host, r.PID)
	us := math.Round(float64(t.Events.Dur[e]) / 1e3)
	msg := inspectorMsg(t, t.Events.Coll[e])
	algo, bus := bandwidths(x.Op, msg, len(comm.Members), us)
	kind := "coll"
	if x.Op.PointToPoint() {
		kind = "p2p"
		fmt.Fprintf(w, `"p2p_perf":{"p2p":%q,"p2p_sn":%d,"p2p_peer":%d,"p2p_msg_size_bytes":%d,"p2p_exec_time_us":%.0f,"p2p_timing_source":"kernel_gpu","p2p_algobw_gbs":%.6f,"p2p_busbw_gbs":%.6f`,
			ncclOps[x.Op], sn, memberIndex(comm, x.Peer), msg, us, algo, bus)
	} else {
		fmt.Fprintf(w, `"coll_perf":{"coll":%q,"coll_sn":%d,"coll_msg_size_bytes":%d,"coll_exec_time_us":%.0f,"coll_timing_source":"kernel_gpu","coll_algobw_gbs":%.6f,"coll_busbw_gbs":%.6f`,
			ncclOps[x.Op], sn, msg, us, algo, bus)
	}
	if verbose {
		start := r.ClockBase + t.Events.Start[e]
		writeEventTrace(w, kind, sn, start/1000, (start+t.Events.Dur[e])/1000)
	}
	w.WriteString("}}\n")
}

// writeEventTrace writes event_trace_sn and event_trace_ts for a kernel of
// one channel from start to stop (wall-clock µs); the operation starts 2 µs
// before (enqueue) and stops 1 µs after (completion seen by the CPU).
func writeEventTrace(w *bufio.Writer, kind string, sn, start, stop int64) {
	fmt.Fprintf(w, `,"event_trace_sn":{"%[1]s_start_sn":%[2]d,"%[1]s_stop_sn":%[3]d,"kernel_events":[{"channel_id":0,"kernel_start_sn":%[2]d,"kernel_stop_sn":%[4]d,"kernel_record_sn":%[4]d}]}`,
		kind, 3*sn, 3*sn+2, 3*sn+1)
	fmt.Fprintf(w, `,"event_trace_ts":{"%[1]s_start_ts":%[2]d,"%[1]s_stop_ts":%[3]d,"kernel_events":[{"channel_id":0,"kernel_start_ts":%[4]d,"kernel_stop_ts":%[5]d,"kernel_record_ts":%[5]d}]}`,
		kind, start-2, stop+1, start, stop)
}

// bandwidths are the Inspector's algorithm and bus bandwidths, GB/s, of a
// message of msg bytes per rank among n ranks.
func bandwidths(op model.Op, msg int64, n int, us float64) (algo, bus float64) {
	if us <= 0 {
		return 0, 0
	}
	traffic, factor := float64(msg), 1.0
	switch op {
	case model.OpAllReduce:
		factor = 2 * float64(n-1) / float64(n)
	case model.OpAllGather, model.OpReduceScatter:
		traffic, factor = traffic*float64(n), float64(n-1)/float64(n)
	}
	algo = traffic / 1e9 / (us / 1e6)
	return algo, algo * factor
}

// commNames names each communicator after the axis its members span under
// the job's layout ("TP Group 0", numbered per axis in member order);
// communicators of one member or of no single axis stay unnamed.
func commNames(job *samples.Job) map[int32]string {
	out := map[int32]string{}
	count := map[model.Axis]int{}
	for i, c := range job.Trace.Comms {
		a := axisOf(&job.Config, c.Members)
		if a == model.AxisUnknown {
			continue
		}
		out[int32(i)] = fmt.Sprintf("%s Group %d", a, count[a])
		count[a]++
	}
	return out
}

// axisOf is the axis whose coordinate alone varies among members.
func axisOf(cfg *samples.Config, members []int32) model.Axis {
	if len(members) < 2 {
		return model.AxisUnknown
	}
	if len(members) == cfg.World() {
		return model.AxisWorld
	}
	var vary [3]bool
	tp0, pp0, dp0 := cfg.Coord(int(members[0]))
	for _, m := range members[1:] {
		tp, pp, dp := cfg.Coord(int(m))
		vary[0], vary[1], vary[2] = vary[0] || tp != tp0, vary[1] || pp != pp0, vary[2] || dp != dp0
	}
	switch vary {
	case [3]bool{true, false, false}:
		return model.AxisTP
	case [3]bool{false, true, false}:
		return model.AxisPP
	case [3]bool{false, false, true}:
		return model.AxisDP
	}
	return model.AxisUnknown
}
