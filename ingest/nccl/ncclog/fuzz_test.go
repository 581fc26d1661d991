package ncclog

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
