package ncclog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/shared"
)

func realLog(t *testing.T, name string) (string, []byte) {
	t.Helper()
	p := filepath.Join(shared.Dir(t), "traces", "nccl", name)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Skipf("real NCCL log absent: %v", err)
	}
	return p, b
}

func TestRealLog227(t *testing.T) {
	// pids as the nccl-tests "Using devices" header prints them; commIds as the Init lines print them.
	cases := []struct {
		name   string
		pid    int64
		commID string
	}{{"Timez-zx_nccl-tests__nccl.log", 64904, "0x54fe282d32a87d85"}, {"Timez-zx_nccl-tests__nccl-fault.log", 65704, "0xde843772bfa53d08"}}
	for _, tc := range cases {
		name := tc.name
		t.Run(name, func(t *testing.T) {
			p, b := realLog(t, name)
			l, err := ParseLog(p, strings.NewReader(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstIndependentCount(t, l, string(b))
			tr := LogTrace([]*Log{l})
			// The nccl-tests header lists the devices independently of NCCL:
			// "Rank 0 ... mew0 device 0 [0000:17:00]", "Rank 1 ... device 1 [0000:65:00]".
			if len(tr.Ranks) != 2 || tr.Ranks[0].Host != "mew0" || tr.Ranks[0].BusID != "0000:17:00.0" ||
				tr.Ranks[1].LocalGPU != 1 || tr.Ranks[1].BusID != "0000:65:00.0" || tr.Ranks[1].PID != tc.pid {
				t.Errorf("ranks = %+v", tr.Ranks)
			}
			if len(tr.Comms) != 1 || tr.Comms[0].ID != "nccl:"+strings.TrimPrefix(tc.commID, "0x") || fmt.Sprint(tr.Comms[0].Members) != "[0 1]" {
				t.Errorf("comms = %+v", tr.Comms)
			}
			if l.Version() != "2.27.7+cuda13.0" || len(l.Unknown) != 0 {
				t.Errorf("version %q unknown %v", l.Version(), l.Unknown)
			}
		})
	}
}

// checkAgainstIndependentCount counts COLL lines per communicator pointer
// with plain substring search, not the parser's regular expressions.
func checkAgainstIndependentCount(t *testing.T, l *Log, text string) {
	t.Helper()
	want := map[string]int{}
	total := 0
	for _, line := range strings.Split(text, "\n") {
		i := strings.Index(line, "NCCL INFO AllReduce: opCount")
		if i < 0 {
			continue
		}
		total++
		f := strings.Fields(line[i:])
		for j := range f {
			if f[j] == "comm" && j+1 < len(f) {
				want[f[j+1]]++
			}
		}
	}
	if l.Colls != total || total == 0 {
		t.Errorf("parser read %d COLL lines, substring count %d", l.Colls, total)
	}
	got := map[string]int{}
	for _, c := range l.Comms {
		got[c.Ptr] += c.Ops["AllReduce"]
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("COLL lines per comm: parser %v, substring count %v", got, want)
	}
}

func TestSplicedTruncatedAndInterleavedLines(t *testing.T) {
	log := strings.Join([]string{
		"NCCL version 2.27.7+cuda12.9",
		"hostA:10:11 [0] NCCL INFO ncclCommInitRankConfig comm 0xa0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1234 - Init START",
		"hostB:20:21 [1] NCCL INFO ncclCommInitRankConfig comm 0xb0 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2c000 commId 0x1234 - Init START",
		"hostA:10:11 [0] NCCL INFO comm 0xa0 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0",
		// a line cut short by another process's line (two writers, one file)
		"hostA:10:11 [0] NCCL INFO comm 0xa0 rank 0 nrhostB:20:21 [1] NCCL INFO comm 0xb0 rank 1 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0",
		// nccl-tests output interleaved before an NCCL line
		"     8388608       2097152     float     sum      -1hostB:20:10 [1] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x2 count 2097152 datatype 7 op 0 root 0 comm 0xb0 [nranks=2] stream 0x3",
		"hostA:10:10 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x2 count 2097152 datatype 9 op 0 root 0 comm 0xa0 [nranks=2] stream 0x3",
		// truncated at the end of the file
		"hostA:10:10 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x2 count 20971",
	}, "\n")
	l, err := ParseLog("x.log", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if l.Colls != 2 || len(l.Skipped) != 2 || l.Skipped[0].Line != 5 || l.Skipped[1].Line != 8 {
		t.Fatalf("colls %d skipped %+v", l.Colls, l.Skipped)
	}
	tr := LogTrace([]*Log{l})
	if len(tr.Ranks) != 2 || tr.Ranks[1].Host != "hostB" || tr.Ranks[0].BusID != "0000:1b:00.0" || len(tr.Skipped) != 2 {
		t.Fatalf("ranks %+v skipped %v", tr.Ranks, tr.Skipped)
	}
	if b := l.Comms[0].Bytes["AllReduce"]; b != 2097152*2 {
		t.Errorf("bf16 bytes = %d", b)
	}
}

func TestUnknownVersionIsReported(t *testing.T) {
	for v, unknown := range map[string]bool{"2.12.12+cuda11.6": true, "3.0.1": true, "2.29.2+cuda13.0": false, "2.18.1": false} {
		l, _ := ParseLog("x.log", strings.NewReader("h:1:1 [0] NCCL INFO NCCL version "+v+"\n"))
		if got := len(l.Unknown) == 1; got != unknown {
			t.Errorf("version %s: unknown = %v", v, got)
		}
	}
}

func TestSplitCommunicatorsShareAKey(t *testing.T) {
	var lines []string
	for r := 0; r < 4; r++ {
		lines = append(lines,
			fmt.Sprintf("h:%d:1 [%d] NCCL INFO ncclCommInitRank comm 0x%d0 rank %d nranks 4 cudaDev %d busId %d000 commId 0xabc - Init COMPLETE", r, r, r, r, r, r+1),
			fmt.Sprintf("h:%d:1 [%d] NCCL INFO ncclCommSplit comm 0x%d1 rank %d nranks 2 cudaDev %d nvmlDev %d busId %d000 parent 0x%d0 splitCount 1 color %d key %d - Init COMPLETE", r, r, r, r%2, r, r, r+1, r, r/2, r))
	}
	l, _ := ParseLog("x.log", strings.NewReader(strings.Join(lines, "\n")))
	tr := LogTrace([]*Log{l})
	members := map[string]string{}
	for _, c := range tr.Comms {
		members[c.ID] = fmt.Sprint(c.Members)
	}
	want := "map[nccl:0000000000000abc:[0 1 2 3] nccl:0000000000000abc/split1:color0:[0 1] nccl:0000000000000abc/split1:color1:[2 3]]"
	if fmt.Sprint(members) != want {
		t.Fatalf("comms %v\nwant %s", members, want)
	}
}
