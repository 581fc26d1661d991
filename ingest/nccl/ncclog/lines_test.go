package ncclog

import (
	"io"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/nccl"
)

const initLine = "h:1:1 [0] NCCL INFO ncclCommInitRank comm 0x10 rank 0 nranks 2 cudaDev 0 busId 1000 commId 0xabc - Init COMPLETE\n"

func TestOverlongLineIsSkippedAlone(t *testing.T) {
	long := strings.Repeat("x", 3*nccl.MaxLine) + "\n"
	r := io.MultiReader(strings.NewReader("NCCL version 2.21.5+cuda12.4\n"), strings.NewReader(long), strings.NewReader(initLine))
	l, err := ParseLog("a.log", r)
	if err != nil {
		t.Fatalf("one overlong line failed the whole log: %v", err)
	}
	if len(l.Comms) != 1 || l.Comms[0].Line != 3 {
		t.Fatalf("the line after the overlong one was not read at line 3: %+v", l.Comms)
	}
	if len(l.Skipped) != 1 || l.Skipped[0] != (nccl.LineSkip{Line: 2, Reason: nccl.LongLine}) {
		t.Fatalf("skips %+v, want line 2 as too long", l.Skipped)
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
