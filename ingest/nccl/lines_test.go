package nccl

import (
	"io"
	"strings"
	"testing"
)

const initLine = "h:1:1 [0] NCCL INFO ncclCommInitRank comm 0x10 rank 0 nranks 2 cudaDev 0 busId 1000 commId 0xabc - Init COMPLETE\n"

func TestOverlongLineIsSkippedAlone(t *testing.T) {
	long := strings.Repeat("x", 3*maxLine) + "\n"
	r := io.MultiReader(strings.NewReader("NCCL version 2.21.5+cuda12.4\n"), strings.NewReader(long), strings.NewReader(initLine))
	l, err := ParseLog("a.log", r)
	if err != nil {
		t.Fatalf("one overlong line failed the whole log: %v", err)
	}
	if len(l.Comms) != 1 || l.Comms[0].Line != 3 {
		t.Fatalf("the line after the overlong one was not read at line 3: %+v", l.Comms)
	}
	if len(l.Skipped) != 1 || l.Skipped[0] != (LogSkip{2, longLine}) {
		t.Fatalf("skips %+v, want line 2 as too long", l.Skipped)
	}
}

func TestOverlongLinesInInspectorAndProfilerFiles(t *testing.T) {
	long := strings.Repeat("{", maxLine+5) + "\n"
	_, skips, err := ParseInspector(strings.NewReader("\n" + long + "{}\n"))
	if err != nil || len(skips) != 1 || skips[0].Line != 2 || skips[0].Reason != longLine {
		t.Fatalf("inspector: skips %+v, err %v", skips, err)
	}
	_, skips, err = ParseProfiler(strings.NewReader(long + long))
	if err != nil || len(skips) != 2 || skips[1].Line != 2 {
		t.Fatalf("profiler: skips %+v, err %v", skips, err)
	}
}

func TestImplausibleRankNumbersAreRejectedPerLine(t *testing.T) {
	bad := []string{
		"h:1:1 [0] NCCL INFO ncclCommInitRank comm 0x20 rank 2000000000 nranks 2000000001 cudaDev 0 busId 1000 - Init COMPLETE",
		"h:1:1 [0] NCCL INFO ncclCommInitRank comm 0x30 rank 99999999999 nranks 4 cudaDev 0 busId 1000 - Init COMPLETE",
		"h:1:1 [0] NCCL INFO ncclCommInitRank comm 0x40 rank 5 nranks 4 cudaDev 0 busId 1000 - Init COMPLETE",
		"h:1:1 [0] NCCL INFO comm 0x50 rank 3 nRanks 4000000 nNodes 2 localRanks 1 localRank 0",
	}
	l, err := ParseLog("a.log", strings.NewReader(initLine+strings.Join(bad, "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Comms) != 1 || l.Comms[0].Rank != 0 || l.Comms[0].NRanks != 2 {
		t.Fatalf("comms %+v, want only the plausible one", l.Comms)
	}
	if len(l.Skipped) != len(bad) {
		t.Fatalf("skips %+v, want one per bad line", l.Skipped)
	}
	for i, s := range l.Skipped {
		if s.Line != int64(i+2) || !strings.Contains(s.Reason, "implausible rank") {
			t.Errorf("skip %d: %+v", i, s)
		}
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
