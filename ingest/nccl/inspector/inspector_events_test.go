package inspector

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// TestInspectorSpan reads the verbose stamps of records as NCCL writes
// them (inside the perf object; the README's v4.0 example first) and
// checks the kernel interval the rules give: end at the last kernel stop,
// lasting the exec time; the operation's stamps without kernel events;
// nothing without stamps.
func TestInspectorSpan(t *testing.T) {
	for _, c := range []struct {
		name, perf string
		start, dur int64
		ok         bool
	}{
		{"readme v4.0", `"coll_perf":{"coll":"ReduceScatter","coll_sn":1231,"coll_msg_size_bytes":2147483648,"coll_exec_time_us":41057,"coll_timing_source":"kernel_gpu","event_trace_sn":{"coll_start_sn":1,"coll_stop_sn":2,"kernel_events":[{"channel_id":0,"kernel_start_sn":3,"kernel_stop_sn":48,"kernel_record_sn":47}]},"event_trace_ts":{"coll_start_ts":1752867229235059,"coll_stop_ts":1752867229235064,"kernel_events":[{"channel_id":0,"kernel_start_ts":1752867229235181,"kernel_stop_ts":1752867229275811,"kernel_record_ts":1752867229275811}]}}`,
			1752867229275811000 - 41057000, 41057000, true},
		{"two channels, no exec time", `"coll_perf":{"coll":"AllReduce","coll_sn":1,"coll_exec_time_us":0,"event_trace_ts":{"coll_start_ts":90,"coll_stop_ts":300,"kernel_events":[{"channel_id":0,"kernel_start_ts":120,"kernel_stop_ts":250},{"channel_id":1,"kernel_start_ts":100,"kernel_stop_ts":260}]}}`,
			100_000, 160_000, true},
		{"p2p, kernel stop unobserved", `"p2p_perf":{"p2p":"Send","p2p_sn":4,"p2p_peer":1,"p2p_exec_time_us":30,"p2p_timing_source":"collective_cpu","event_trace_ts":{"p2p_start_ts":500,"p2p_stop_ts":530,"kernel_events":[{"channel_id":0,"kernel_start_ts":0,"kernel_stop_ts":0}]}}`,
			500_000, 30_000, true},
		{"non-verbose", `"coll_perf":{"coll":"AllReduce","coll_sn":1,"coll_exec_time_us":61974}`, 0, 0, false},
		{"stop before start", `"coll_perf":{"coll":"AllReduce","coll_sn":1,"event_trace_ts":{"kernel_events":[{"kernel_start_ts":300,"kernel_stop_ts":200}]}}`, 0, 0, false},
		{"stamp past 2255", `"coll_perf":{"coll":"AllReduce","coll_sn":1,"coll_exec_time_us":5,"event_trace_ts":{"kernel_events":[{"kernel_start_ts":9000000000000000,"kernel_stop_ts":9000000000000005}]}}`, 0, 0, false},
	} {
		line := `{"header":{"id":"0x1","rank":0,"n_ranks":2,"nnodes":1},"metadata":{"hostname":"h","pid":1},` + c.perf + `}`
		recs, skips, err := ParseInspector(strings.NewReader(line))
		if err != nil || len(skips) != 0 || len(recs) != 1 {
			t.Fatalf("%s: recs %v skips %v err %v", c.name, recs, skips, err)
		}
		start, dur, ok := recs[0].Span()
		if ok != c.ok || ok && (start != c.start || dur != c.dur) {
			t.Errorf("%s: span %d+%d ok %v, want %d+%d %v", c.name, start, dur, ok, c.start, c.dur, c.ok)
		}
	}
}

// inspectorFiles are two processes' records of one 2-rank communicator:
// process 11 in the v4.0 layout, process 12 in the v4.3 marker layout (with
// the stamps beside the payload, as an older writer put them). Each has an
// AllReduce (coll_sn 7), a ReduceScatter (coll_sn 7 too: NCCL counts per
// operation), a send or its receive, and one non-verbose AllReduce.
var inspectorFiles = map[string]string{
	"h1-pid11.log": strings.Join([]string{
		`{"header":{"id":"0xab","comm_name":"TP Group 0","rank":0,"n_ranks":2,"nnodes":1},"metadata":{"hostname":"h1","pid":11},"coll_perf":{"coll":"AllReduce","coll_sn":7,"coll_msg_size_bytes":65536,"coll_exec_time_us":40,"event_trace_ts":{"coll_start_ts":1000,"coll_stop_ts":1100,"kernel_events":[{"kernel_start_ts":1010,"kernel_stop_ts":1050}]}}}`,
		`{"header":{"id":"0xab","comm_name":"TP Group 0","rank":0,"n_ranks":2,"nnodes":1},"metadata":{"hostname":"h1","pid":11},"coll_perf":{"coll":"ReduceScatter","coll_sn":7,"coll_msg_size_bytes":65536,"coll_exec_time_us":20,"event_trace_ts":{"kernel_events":[{"kernel_start_ts":1200,"kernel_stop_ts":1220}]}}}`,
		`{"header":{"id":"0xab","comm_name":"TP Group 0","rank":0,"n_ranks":2,"nnodes":1},"metadata":{"hostname":"h1","pid":11},"p2p_perf":{"p2p":"Send","p2p_sn":0,"p2p_peer":1,"p2p_msg_size_bytes":8192,"p2p_exec_time_us":9,"event_trace_ts":{"p2p_start_ts":1290,"p2p_stop_ts":1310,"kernel_events":[{"kernel_start_ts":1300,"kernel_stop_ts":1309}]}}}`,
		`{"header":{"id":"0xab","comm_name":"TP Group 0","rank":0,"n_ranks":2,"nnodes":1},"metadata":{"hostname":"h1","pid":11},"coll_perf":{"coll":"AllReduce","coll_sn":8,"coll_msg_size_bytes":65536,"coll_exec_time_us":40}}`,
	}, "\n"),
	"h1-pid12.log": strings.Join([]string{
		`{"dump_stats":{},"header":{"id":"0xab","comm_name":"TP Group 0","rank":1,"n_ranks":2,"nnodes":1},"metadata":{"hostname":"h1","pid":12}}`,
		`{"coll_perf":{"coll":"AllReduce","coll_sn":7,"coll_msg_size_bytes":65536,"coll_exec_time_us":30},"event_trace_ts":{"kernel_events":[{"kernel_start_ts":1020,"kernel_stop_ts":1050}]}}`,
		`{"coll_perf":{"coll":"ReduceScatter","coll_sn":7,"coll_msg_size_bytes":65536,"coll_exec_time_us":20},"event_trace_ts":{"kernel_events":[{"kernel_start_ts":1200,"kernel_stop_ts":1220}]}}`,
		`{"p2p_perf":{"p2p":"Recv","p2p_sn":0,"p2p_peer":0,"p2p_msg_size_bytes":8192,"p2p_exec_time_us":12},"event_trace_ts":{"kernel_events":[{"kernel_start_ts":1297,"kernel_stop_ts":1309}]}}`,
		`{"coll_perf":{"coll":"AllReduce","coll_sn":8,"coll_msg_size_bytes":65536,"coll_exec_time_us":40}}`,
	}, "\n"),
}

func writeInspectorFiles(t *testing.T, files map[string]string) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestReadInspectorEvents: the timed records become events of the ranks
// the processes are numbered as, with the communicator's hash key, coll_sn
// as Seq, the input-side bytes and the peer's global rank, in a valid
// Fallback trace on the wall clock; the non-verbose ones give none.
func TestReadInspectorEvents(t *testing.T) {
	tr, err := Format.Read(context.Background(), writeInspectorFiles(t, inspectorFiles), source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil || !tr.Fallback || tr.Events.Len() != 6 || len(tr.Ranks) != 2 {
		t.Fatalf("validate %v, fallback %v, %d events over %d ranks; want 6 over 2", err, tr.Fallback, tr.Events.Len(), len(tr.Ranks))
	}
	want := []struct {
		rank       int32
		start, dur int64
		op         model.Op
		bytes      int64
		seq        int64
		peer       int32
	}{
		{0, 1_010_000, 40_000, model.OpAllReduce, 65536, 7, -1},
		{0, 1_200_000, 20_000, model.OpReduceScatter, 131072, 7, -1},
		{0, 1_300_000, 9_000, model.OpSend, 8192, -1, 1},
		{1, 1_020_000, 30_000, model.OpAllReduce, 65536, 7, -1},
		{1, 1_200_000, 20_000, model.OpReduceScatter, 131072, 7, -1},
		{1, 1_297_000, 12_000, model.OpRecv, 8192, -1, 0},
	}
	for i, w := range want {
		e, c := tr.Events.At(i), tr.Colls.At(int(tr.Events.Coll[i]))
		comm := tr.Comms[c.Comm]
		if e.Rank != w.rank || e.Start != w.start || e.Dur != w.dur || e.Kind != model.KindComm || tr.Streams[e.Stream].Name != InspectorStream {
			t.Errorf("event %d: %+v, want rank %d %d+%d on %q", i, e, w.rank, w.start, w.dur, InspectorStream)
		}
		if c.Op != w.op || c.Bytes != w.bytes || c.Seq != w.seq || c.Peer != w.peer || c.GroupSize != 2 || comm.ID != nccl.HashKey(0xab) {
			t.Errorf("event %d: collective %+v on %s, want %s %d bytes seq %d peer %d on %s", i, c, comm.ID, w.op, w.bytes, w.seq, w.peer, nccl.HashKey(0xab))
		}
	}
	for _, r := range tr.Ranks {
		if r.ClockBase != 0 {
			t.Errorf("rank %d: clock base %d, want 0 (epoch ns)", r.Rank, r.ClockBase)
		}
	}
}

// TestNonVerboseInspectorHasNoEvents: exec times without stamps are not
// placed in time: ranks and communicators only, not a Fallback.
func TestNonVerboseInspectorHasNoEvents(t *testing.T) {
	files := map[string]string{}
	for name, text := range inspectorFiles {
		var keep []string
		for _, l := range strings.Split(text, "\n") {
			if !strings.Contains(l, "_ts") {
				keep = append(keep, l)
			}
		}
		files[name] = strings.Join(keep, "\n")
	}
	tr, err := Format.Read(context.Background(), writeInspectorFiles(t, files), source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Events.Len() != 0 || tr.Fallback || len(tr.Ranks) != 2 || len(tr.Comms) != 1 {
		t.Fatalf("%d events, fallback %v, %d ranks, %d comms; want none, false, 2, 1", tr.Events.Len(), tr.Fallback, len(tr.Ranks), len(tr.Comms))
	}
}
