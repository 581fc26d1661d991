package nccl

import (
	"strings"
	"testing"
)

func FuzzParseLog(f *testing.F) {
	f.Add("h:1:2 [0] NCCL INFO ncclCommInitRank comm 0xa0 rank 0 nranks 2 cudaDev 0 busId 1b000 commId 0x12 - Init START\n")
	f.Add("h:1:2 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0xa0 [nranks=2] stream 0x3\n")
	f.Add("x:1:1 [0] NCCL INFO comm 0xa0 rank 0 nrh:2:2 [1] NCCL INFO comm 0xb0 rank 1 nRanks 2 nNodes 1 localRanks 2 localRank 1 MNNVL 0\n")
	f.Add("h:1:1 [0] NCCL INFO NCCL version 2.99.0\n")
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLog("f.log", strings.NewReader(s))
		if err != nil {
			return
		}
		if n := strings.Count(s, "\n") + 1; len(l.Skipped) > 2*n {
			t.Fatalf("%d skips for %d lines", len(l.Skipped), n)
		}
		tr := LogTrace([]*Log{l})
		if err := tr.Validate(); err != nil {
			t.Fatalf("invalid trace from log: %v", err)
		}
	})
}

func FuzzParseProfiler(f *testing.F) {
	f.Add(`{"name": "Send", "cat": "P2P", "ph": "b", "id": 0, "pid": 1, "tid": 1, "ts": 1.5, "args": {"CommHash": 12715772615376301750, "Rank": 0, "Peer": 1, "Datatype": ncclFloat32}},`)
	f.Fuzz(func(t *testing.T, s string) {
		evs, _, err := ParseProfiler(strings.NewReader(s))
		if err == nil {
			_ = viewsTrace(profViews(evs, ""), "nccl-profiler", nil).Validate()
		}
	})
}

// FuzzDumpFrom feeds the Flight Recorder value decoder (pickle or JSON,
// then dumpFrom and Diagnose): no panic, and an error quotes little.
func FuzzDumpFrom(f *testing.F) {
	f.Add(frBomb(6, 4))
	f.Add(frBomb(2, 3))
	f.Add([]byte(`{"version": "2.9", "pg_config": {"0": {"name": "0", "desc": "default_pg", "ranks": "[0, 1]"}}, "pg_status": {},
		"entries": [{"record_id": 0, "pg_id": 0, "process_group": ["0", "default_pg"], "collective_seq_id": 1, "profiling_name": "nccl:all_reduce",
		"state": "completed", "time_created_ns": 5, "duration_ms": 1.5, "input_sizes": [[4]], "input_dtypes": ["Float"]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodeDump(b)
		if err != nil {
			return
		}
		d, err := dumpFrom(v)
		if err != nil {
			if len(err.Error()) > 4096 {
				t.Fatalf("the error quotes %d bytes", len(err.Error()))
			}
			return
		}
		d.Path, d.Rank = "rank_0", 0
		Diagnose([]*Dump{d})
	})
}
