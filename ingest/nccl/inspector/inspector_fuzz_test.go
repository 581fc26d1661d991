package inspector

import (
	"strings"
	"testing"
)

// inspectorSeeds are the seed corpus: the v4.0 layout (README example,
// verbose), the v4.3 marker layout, a verbose p2p record and each line of
// inspectorFiles; testdata holds records samples/ncclw wrote.
func inspectorSeeds() []string {
	seeds := []string{
		`{"header":{"id":"0x7f8c496ae9f661","comm_name":"DP Group 0","rank":2,"n_ranks":8,"nnodes":1},"metadata":{"inspector_output_format_version":"v4.0","git_rev":"","rec_mechanism":"nccl_profiler_interface","dump_timestamp_us":1748030377748202,"hostname":"example-hostname","pid":1639453},"coll_perf":{"coll":"AllReduce","coll_sn":1407,"coll_msg_size_bytes":17179869184,"coll_exec_time_us":61974,"coll_timing_source":"kernel_gpu","coll_algobw_gbs":277.210914,"coll_busbw_gbs":485.119099,"event_trace_ts":{"coll_start_ts":1748030377000000,"coll_stop_ts":1748030377070000,"kernel_events":[{"channel_id":0,"kernel_start_ts":1748030377000100,"kernel_stop_ts":1748030377062074,"kernel_record_ts":1748030377062074}]}}}`,
		"{\"dump_stats\":{},\"header\":{\"id\":\"0x11\",\"comm_name\":\"unknown\",\"rank\":0,\"n_ranks\":2,\"nnodes\":2},\"metadata\":{\"inspector_output_format_version\":\"v4.3\",\"hostname\":\"h1\",\"pid\":11}}\n" +
			`{"coll_perf":{"coll":"AllGather","coll_algo":"RING","coll_proto":"LL","coll_sn":3,"coll_msg_size_bytes":8192,"coll_exec_time_us":12,"coll_timing_source":"kernel_gpu","coll_algobw_gbs":1.5,"coll_busbw_gbs":0.75}}`,
		`{"header":{"id":"0x1","rank":0,"n_ranks":2,"nnodes":1},"metadata":{"hostname":"h","pid":1},"p2p_perf":{"p2p":"Send","p2p_sn":4,"p2p_peer":1,"p2p_msg_size_bytes":8192,"p2p_exec_time_us":30,"event_trace_sn":{"p2p_start_sn":1,"p2p_stop_sn":2},"event_trace_ts":{"p2p_start_ts":500,"p2p_stop_ts":530,"kernel_events":[{"channel_id":0,"kernel_start_ts":0,"kernel_stop_ts":0}]}}}`,
	}
	for _, text := range inspectorFiles {
		seeds = append(seeds, strings.Split(text, "\n")...) // short seeds minimize fast
	}
	return seeds
}

// FuzzParseInspector: any input parses without panicking into no more
// records and skips than lines, every span it claims is a non-negative
// interval, and the trace the records make validates.
func FuzzParseInspector(f *testing.F) {
	for _, s := range inspectorSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		recs, skips, err := ParseInspector(strings.NewReader(s))
		if err != nil {
			return
		}
		if n := strings.Count(s, "\n") + 1; len(recs)+len(skips) > n {
			t.Fatalf("%d records and %d skips from %d lines", len(recs), len(skips), n)
		}
		for _, r := range recs {
			if start, dur, ok := r.Span(); ok && (start <= 0 || dur < 0 || start > start+dur) {
				t.Fatalf("span %d+%d of %+v", start, dur, r)
			}
		}
		if err := inspectorTrace(recs, nil).Validate(); err != nil {
			t.Fatalf("invalid trace: %v", err)
		}
	})
}
