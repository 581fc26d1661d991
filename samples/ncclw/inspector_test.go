package ncclw

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/nccl"
	"github.com/tpptrace/tpptrace/ingest/nccl/inspector"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

// TestInspectorRoundTrip writes every rank's Inspector records and reads
// them back: one record per communication kernel of at least MinBytes, with
// its duration as exec time (whole µs), and per communicator the members and the axis
// its name tells.
func TestInspectorRoundTrip(t *testing.T) {
	job, err := samples.Simulate(samples.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range job.Trace.Ranks {
		var b bytes.Buffer
		if err := WriteInspector(&b, job, r.Rank, InspectorOptions{CommNames: true}); err != nil {
			t.Fatal(err)
		}
		recs, skips, err := inspector.ParseInspector(&b)
		if err != nil || len(skips) != 0 {
			t.Fatalf("rank %d: err %v skips %v", r.Rank, err, skips)
		}
		checkRecords(t, job.Trace, r, recs)
	}
	dir := t.TempDir()
	paths, err := WriteInspectorDir(dir, job, InspectorOptions{CommNames: true})
	if err != nil {
		t.Fatal(err)
	}
	tr := readInspector(t, paths)
	checkInspectorComms(t, job, tr)
}

func checkRecords(t *testing.T, want *model.Trace, r model.Rank, recs []inspector.InspectorRecord) {
	t.Helper()
	var durs []float64
	lo, hi := want.Events.RankRange(r.Rank)
	for i := lo; i < hi; i++ {
		if c := want.Events.Coll[i]; want.Events.Kind[i] == model.KindComm && c >= 0 && want.Colls.Comm[c] >= 0 && inspectorMsg(want, c) >= MinBytes {
			durs = append(durs, float64(want.Events.Dur[i])/1e3)
		}
	}
	if len(recs) != len(durs) || len(durs) == 0 {
		t.Fatalf("rank %d: %d records, %d kernels", r.Rank, len(recs), len(durs))
	}
	for i, rec := range recs {
		if math.Abs(rec.ExecUs-durs[i]) > 0.5 || rec.Host != r.Host || rec.PID != r.PID {
			t.Fatalf("rank %d record %d: %+v, want exec %.3f µs on %s pid %d", r.Rank, i, rec, durs[i], r.Host, r.PID)
		}
	}
}

func checkInspectorComms(t *testing.T, job *samples.Job, tr *model.Trace) {
	t.Helper()
	byID := map[string]model.Communicator{}
	for _, c := range tr.Comms {
		byID[c.ID] = c
	}
	used := map[int32]bool{}
	for _, c := range job.Trace.Colls.Comm {
		used[c] = true
	}
	for i, c := range job.Trace.Comms {
		if !used[int32(i)] {
			continue
		}
		g, ok := byID[nccl.HashKey(CommHash(c.ID))]
		want := axisOf(&job.Config, c.Members)
		if !ok || fmt.Sprint(g.Members) != fmt.Sprint(c.Members) || g.Axis != want || want != model.AxisUnknown && g.AxisBy != model.AxisByDescription {
			t.Errorf("communicator %s %v: read %+v, want axis %s", c.ID, c.Members, g, want)
		}
	}
}

func readInspector(t *testing.T, paths []string) *model.Trace {
	t.Helper()
	tr, err := inspector.Format.Read(context.Background(), paths, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
