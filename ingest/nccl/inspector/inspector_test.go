package inspector

import (
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/nccl"
)

func TestInspectorBothContextForms(t *testing.T) {
	lines := strings.Join([]string{
		`{"header":{"id":"0x7F8c496ae9f661","comm_name":"DP Group 0","rank":2,"n_ranks":8,"nnodes":1},"metadata":{"inspector_output_format_version":"v4.0","hostname":"h1","pid":11},"coll_perf":{"coll":"AllReduce","coll_sn":1407,"coll_msg_size_bytes":17179869184,"coll_exec_time_us":61974,"coll_timing_source":"kernel_gpu","coll_busbw_gbs":485.1}}`,
		`{"dump_stats":{},"header":{"id":"0x11","comm_name":"unknown","rank":0,"n_ranks":2,"nnodes":2},"metadata":{"hostname":"h1","pid":11}}`,
		`{"p2p_perf":{"p2p":"Send","p2p_sn":3,"p2p_peer":1,"p2p_msg_size_bytes":8192,"p2p_exec_time_us":12}}`,
		`not json`,
	}, "\n")
	recs, skips, err := ParseInspector(strings.NewReader(lines))
	if err != nil || len(recs) != 2 || len(skips) != 1 || skips[0].Line != 4 {
		t.Fatalf("recs %+v skips %v err %v", recs, skips, err)
	}
	if recs[0].CommID != "0x7f8c496ae9f661" || recs[0].CommName != "DP Group 0" || recs[0].Seq != 1407 {
		t.Errorf("v4.0 record %+v", recs[0])
	}
	if recs[1].CommID != "0x11" || recs[1].CommName != "" || recs[1].Peer != 1 || recs[1].Host != "h1" {
		t.Errorf("marker-context record %+v", recs[1])
	}
}

func TestOverlongLinesInInspectorFiles(t *testing.T) {
	long := strings.Repeat("{", nccl.MaxLine+5) + "\n"
	_, skips, err := ParseInspector(strings.NewReader("\n" + long + "{}\n"))
	if err != nil || len(skips) != 1 || skips[0].Line != 2 || skips[0].Reason != nccl.LongLine {
		t.Fatalf("inspector: skips %+v, err %v", skips, err)
	}
}

func TestImplausibleInspectorRanksAreSkippedPerRecord(t *testing.T) {
	good := `{"header":{"id":"0x1","rank":0,"n_ranks":2,"nnodes":1},"metadata":{"hostname":"h","pid":1},"coll_perf":{"coll":"AllReduce","coll_sn":1,"coll_msg_size_bytes":8,"coll_exec_time_us":4}}`
	bad := strings.Replace(good, `"rank":0,"n_ranks":2`, `"rank":2000000000,"n_ranks":2000000001`, 1)
	recs, skips, err := ParseInspector(strings.NewReader(good + "\n" + bad + "\n"))
	if err != nil || len(recs) != 1 || len(skips) != 1 || skips[0].Line != 2 || !strings.Contains(skips[0].Reason, "implausible rank") {
		t.Fatalf("records %d, skips %+v, err %v", len(recs), skips, err)
	}
}
