package ncclw

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/ingest/nccl/ncclog"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

// TestLogsRecoverTheJob writes the simulated job's NCCL logs, reads them back
// with the nccl reader and compares ranks, hosts, GPUs, communicator members
// and COLL counts with the simulation's own trace. With PyTorch's
// ProcessGroupNCCL lines the communicators are keyed by process-group name,
// as Kineto keys them; without them, by commHash.
func TestLogsRecoverTheJob(t *testing.T) {
	job, err := samples.Simulate(samples.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, pgLines := range []bool{true, false} {
		logs := readLogs(t, job, pgLines)
		got := ncclog.LogTrace(logs)
		checkRanks(t, got, job.Trace)
		key := func(c model.Communicator) string { return nccl.HashKey(CommHash(c.ID)) }
		if pgLines {
			key = func(c model.Communicator) string { return c.Name }
			checkDescs(t, got, job.Trace)
		}
		checkComms(t, got, job.Trace, key)
		checkCollCounts(t, logs, job.Trace)
	}
}

func readLogs(t *testing.T, job *samples.Job, pgLines bool) []*ncclog.Log {
	t.Helper()
	var logs []*ncclog.Log
	for _, h := range hosts(job) {
		var b bytes.Buffer
		if err := WriteLog(&b, job, h); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		if !pgLines {
			text = dropLines(text, "ProcessGroupNCCL")
		}
		l, err := ncclog.ParseLog(h+".log", strings.NewReader(text))
		if err != nil || len(l.Skipped) != 0 {
			t.Fatalf("%s: err %v skipped %v", h, err, l.Skipped)
		}
		logs = append(logs, l)
	}
	return logs
}

func dropLines(s, substr string) string {
	var keep []string
	for _, line := range strings.Split(s, "\n") {
		if !strings.Contains(line, substr) {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// checkDescs: every described process group keeps its description and the
// axis it names.
func checkDescs(t *testing.T, got, want *model.Trace) {
	t.Helper()
	for _, w := range want.Comms {
		i := slices.IndexFunc(got.Comms, func(c model.Communicator) bool { return c.ID == w.Name })
		if i < 0 {
			t.Errorf("process group %s not read", w.Name)
			continue
		}
		g := got.Comms[i]
		if g.Desc != w.Desc || g.Axis == model.AxisUnknown || g.AxisBy != model.AxisByDescription {
			t.Errorf("process group %s: desc %q axis %s by %s, want desc %q with an axis by description", w.Name, g.Desc, g.Axis, g.AxisBy, w.Desc)
		}
	}
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

func checkComms(t *testing.T, got, want *model.Trace, key func(model.Communicator) string) {
	t.Helper()
	members := map[string]string{}
	for _, c := range got.Comms {
		members[c.ID] = fmt.Sprint(c.Members)
	}
	for _, c := range want.Comms {
		id := key(c)
		if members[id] != fmt.Sprint(c.Members) {
			t.Errorf("communicator %s: members %s, want %v", c.ID, members[id], c.Members)
		}
	}
}

func checkCollCounts(t *testing.T, logs []*ncclog.Log, want *model.Trace) {
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
