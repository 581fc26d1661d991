package ncclw

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/model"
	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/samples"
)

// TestLogsRecoverTheJob writes the simulated job's NCCL logs, reads them back
// with the nccl reader and compares ranks, hosts, GPUs, communicator members
// and COLL counts with the simulation's own trace.
func TestLogsRecoverTheJob(t *testing.T) {
	job, err := samples.Simulate(samples.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	hosts := map[string]bool{}
	for _, r := range job.Trace.Ranks {
		hosts[r.Host] = true
	}
	var logs []*nccl.Log
	for h := range hosts {
		var b bytes.Buffer
		if err := WriteLog(&b, job, h); err != nil {
			t.Fatal(err)
		}
		l, err := nccl.ParseLog(h+".log", &b)
		if err != nil || len(l.Skipped) != 0 {
			t.Fatalf("%s: err %v skipped %v", h, err, l.Skipped)
		}
		logs = append(logs, l)
	}
	got := nccl.LogTrace(logs)
	checkRanks(t, got, job.Trace)
	checkComms(t, got, job.Trace)
	checkCollCounts(t, logs, job.Trace)
}

func checkRanks(t *testing.T, got, want *model.Trace) {
	t.Helper()
	if len(got.Ranks) != len(want.Ranks) {
		t.Fatalf("%d ranks, want %d", len(got.Ranks), len(want.Ranks))
	}
	for i, w := range want.Ranks {
		g := got.Ranks[i]
		if g.Rank != w.Rank || g.Host != w.Host || g.PID != w.PID || g.LocalGPU != w.LocalGPU {
			t.Errorf("rank %d: got %s pid %d gpu %d, want %s pid %d gpu %d", w.Rank, g.Host, g.PID, g.LocalGPU, w.Host, w.PID, w.LocalGPU)
		}
	}
}

func checkComms(t *testing.T, got, want *model.Trace) {
	t.Helper()
	members := map[string]string{}
	for _, c := range got.Comms {
		members[c.ID] = fmt.Sprint(c.Members)
	}
	for _, c := range want.Comms {
		id := fmt.Sprintf("nccl:0x%x", CommHash(c.ID))
		if members[id] != fmt.Sprint(c.Members) {
			t.Errorf("communicator %s: members %s, want %v", c.ID, members[id], c.Members)
		}
	}
}

func checkCollCounts(t *testing.T, logs []*nccl.Log, want *model.Trace) {
	t.Helper()
	n := 0
	for i := 0; i < want.Events.Len(); i++ {
		if c := want.Events.Coll[i]; want.Events.Kind[i] == model.KindComm && c >= 0 && want.Colls.Comm[c] >= 0 {
			n++
		}
	}
	got := 0
	for _, l := range logs {
		got += l.Colls
	}
	if got != n || n == 0 {
		t.Errorf("%d COLL lines, %d collective kernels", got, n)
	}
}
