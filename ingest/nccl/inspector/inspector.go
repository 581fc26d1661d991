package inspector

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/nccl"
)

// InspectorRecord is one NCCL Inspector collective or p2p record.
type InspectorRecord struct {
	CommID   string // header.id, "0x…" (the commHash, as NCCL INFO logs print commId)
	CommName string // header.comm_name, "" when "unknown"
	Rank     int32  // rank within the communicator
	NRanks   int32
	NNodes   int32
	Host     string
	PID      int64
	Op       string // "AllReduce", "Send"
	Seq      int64  // coll_sn / p2p_sn
	Peer     int32  // p2p peer, -1 for collectives
	Bytes    int64
	ExecUs   float64
	Timing   string // kernel_gpu, kernel_cpu, collective_cpu
	BusBW    float64
	// Times are the verbose event_trace_ts (NCCL_INSPECTOR_DUMP_VERBOSE=1),
	// host wall-clock µs; zero in non-verbose records.
	Times InspectorTimes
}

type inspectorLine struct {
	Header *struct {
		ID       string `json:"id"`
		CommName string `json:"comm_name"`
		Rank     int32  `json:"rank"`
		NRanks   int32  `json:"n_ranks"`
		NNodes   int32  `json:"nnodes"`
	} `json:"header"`
	Metadata *struct {
		Hostname string `json:"hostname"`
		PID      int64  `json:"pid"`
	} `json:"metadata"`
	Coll *struct {
		Op     string       `json:"coll"`
		Seq    int64        `json:"coll_sn"`
		Bytes  int64        `json:"coll_msg_size_bytes"`
		ExecUs float64      `json:"coll_exec_time_us"`
		Timing string       `json:"coll_timing_source"`
		BusBW  float64      `json:"coll_busbw_gbs"`
		TS     *inspectorTS `json:"event_trace_ts"`
	} `json:"coll_perf"`
	P2P *struct {
		Op     string       `json:"p2p"`
		Seq    int64        `json:"p2p_sn"`
		Peer   int32        `json:"p2p_peer"`
		Bytes  int64        `json:"p2p_msg_size_bytes"`
		ExecUs float64      `json:"p2p_exec_time_us"`
		Timing string       `json:"p2p_timing_source"`
		BusBW  float64      `json:"p2p_busbw_gbs"`
		TS     *inspectorTS `json:"event_trace_ts"`
	} `json:"p2p_perf"`
	TS *inspectorTS `json:"event_trace_ts"` // beside the payload, as some writers place it
}

// ParseInspector reads NCCL Inspector JSON lines. Lines carry their
// communicator context (formats v4.0–v4.2) or inherit it from the last
// dump_stats marker line (v4.3+). Unreadable lines are returned as skips.
func ParseInspector(r io.Reader) ([]InspectorRecord, []nccl.LineSkip, error) { return parse(r, 0) }

// parse is ParseInspector within the memory budget maxMem (0: none).
func parse(r io.Reader, maxMem int64) ([]InspectorRecord, []nccl.LineSkip, error) {
	var recs []InspectorRecord
	skips, err := each(r, maxMem, func(rec InspectorRecord) { recs = append(recs, rec) })
	return recs, skips, err
}

// each streams r, calling rec for every record, and returns the skips.
func each(r io.Reader, maxMem int64, rec func(InspectorRecord)) ([]nccl.LineSkip, error) {
	var skips []nccl.LineSkip
	var ctx InspectorRecord
	err := nccl.EachLine(r, maxMem, func(n int64, s string) {
		text := strings.TrimSpace(s)
		if text == "" {
			return
		}
		var l inspectorLine
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			skips = append(skips, nccl.LineSkip{Line: n, Reason: fmt.Sprintf("not an Inspector record: %v", nccl.Cut(err.Error()))})
			return
		}
		if h := l.Header; h != nil && implausibleRanks(h.Rank, h.NRanks) {
			skips = append(skips, nccl.LineSkip{Line: n, Reason: fmt.Sprintf("implausible rank %d of %d ranks (at most 2^20): record skipped", h.Rank, h.NRanks)})
			return
		}
		ctx = inspectorContext(ctx, &l)
		if r, ok := inspectorPayload(ctx, &l); ok {
			rec(r)
		}
	}, func(n int64) { skips = append(skips, nccl.LineSkip{Line: n, Reason: nccl.LongLine}) })
	return skips, err
}

func inspectorContext(ctx InspectorRecord, l *inspectorLine) InspectorRecord {
	if h := l.Header; h != nil {
		ctx.CommID, ctx.Rank, ctx.NRanks, ctx.NNodes = strings.ToLower(h.ID), h.Rank, h.NRanks, h.NNodes
		ctx.CommName = h.CommName
		if ctx.CommName == "unknown" {
			ctx.CommName = ""
		}
	}
	if m := l.Metadata; m != nil {
		ctx.Host, ctx.PID = m.Hostname, m.PID
	}
	return ctx
}

func inspectorPayload(ctx InspectorRecord, l *inspectorLine) (InspectorRecord, bool) {
	r := ctx
	switch {
	case l.Coll != nil:
		c := l.Coll
		r.Op, r.Seq, r.Peer, r.Bytes, r.ExecUs, r.Timing, r.BusBW = c.Op, c.Seq, -1, c.Bytes, c.ExecUs, c.Timing, c.BusBW
		r.Times = c.TS.times(l.TS)
	case l.P2P != nil:
		p := l.P2P
		r.Op, r.Seq, r.Peer, r.Bytes, r.ExecUs, r.Timing, r.BusBW = p.Op, p.Seq, p.Peer, p.Bytes, p.ExecUs, p.Timing, p.BusBW
		r.Times = p.TS.times(l.TS)
	default:
		return r, false
	}
	return r, r.CommID != ""
}

// implausibleRanks: a negative rank or count, one past MaxRanks, or a rank
// not below a stated count (0 is an absent count).
func implausibleRanks(rank, nranks int32) bool {
	return rank < 0 || nranks < 0 || nranks > nccl.MaxRanks || rank >= nccl.MaxRanks || nranks > 0 && rank >= nranks
}
