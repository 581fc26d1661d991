package kinetow

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/kineto"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples"
)

// TestKinetoReaderRoundTrip ingests written traces with the Kineto reader
// and expects the model's events per kind, collectives and ranks back;
// with P2PNoSeq ("-noseq") the send/recv kernels come back with neither
// sequence number nor peer.
func TestKinetoReaderRoundTrip(t *testing.T) {
	for _, name := range []string{"slow-rank", "p2p-nometa", "slow-rank-noseq"} {
		t.Run(name, func(t *testing.T) {
			base, noSeq := strings.CutSuffix(name, "-noseq")
			cfg, _ := simulate(t, base)
			cfg.P2PNoSeq = noSeq
			job, err := samples.Simulate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if n := unnumberedP2P(job.Trace); noSeq != (n > 0) {
				t.Fatalf("P2PNoSeq %v: %d send/recv rows without seq and peer", noSeq, n)
			}
			dir := writeTemp(t, job)
			var paths []string
			for _, r := range job.Trace.Ranks {
				paths = append(paths, filepath.Join(dir, FileName(int(r.Rank))))
			}
			got, err := kineto.Read(context.Background(), paths, source.Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			compareTraces(t, job.Trace, got)
		})
	}
}

func compareTraces(t *testing.T, want, got *model.Trace) {
	t.Helper()
	wk, gk := want.CountByKind(), got.CountByKind()
	for _, k := range model.Kinds() {
		if wk[k] != gk[k] {
			t.Errorf("%s events: read %d, wrote %d", k, gk[k], wk[k])
		}
	}
	if len(got.Ranks) != len(want.Ranks) {
		t.Fatalf("read %d ranks, wrote %d", len(got.Ranks), len(want.Ranks))
	}
	for i, r := range want.Ranks {
		g := got.Ranks[i]
		if g.Rank != r.Rank || g.Host != r.Host && g.Host != "" || g.ClockBase != r.ClockBase && g.ClockBase != 0 {
			t.Errorf("rank %d read back as %+v", r.Rank, g)
		}
	}
	for _, s := range got.Skipped {
		if !strings.Contains(s.Reason, `"Trace"`) { // the profiler's span is not an event
			t.Errorf("reader skipped %+v", s)
		}
	}
	compareCommKernels(t, want, got)
}

// compareCommKernels: the same comm kernels with the same op, bytes, seq and
// peer, and the same communicator name.
func compareCommKernels(t *testing.T, want, got *model.Trace) {
	t.Helper()
	type key struct {
		rank          int32
		start, stream int64
	}
	wm := map[key]model.Collective{}
	for i := range want.Events.Len() {
		if c := want.Events.Coll[i]; c >= 0 {
			wm[key{want.Events.Rank[i], want.Events.Start[i], want.Streams[want.Events.Stream[i]].ID}] = want.Colls.At(int(c))
		}
	}
	bad := 0
	for i := range got.Events.Len() {
		c := got.Events.Coll[i]
		if c < 0 || got.Events.Kind[i] != model.KindComm {
			continue
		}
		w, ok := wm[key{got.Events.Rank[i], got.Events.Start[i], got.Streams[got.Events.Stream[i]].ID}]
		g := got.Colls.At(int(c))
		if !ok || g.Op != w.Op || g.Bytes != w.Bytes || g.Seq != w.Seq || g.Peer != w.Peer || commName(got, g.Comm) != commName(want, w.Comm) {
			if bad++; bad <= 3 {
				t.Errorf("rank %d comm kernel at %d: read %+v (%s), wrote %+v (%s)", got.Events.Rank[i], got.Events.Start[i], g, commName(got, g.Comm), w, commName(want, w.Comm))
			}
		}
	}
}

// unnumberedP2P counts the send/recv rows with a communicator but neither
// sequence number nor peer.
func unnumberedP2P(t *model.Trace) int {
	n := 0
	for i := range t.Colls.Len() {
		x := t.Colls.At(i)
		if (x.Op == model.OpSend || x.Op == model.OpRecv) && x.Comm >= 0 && x.Seq < 0 && x.Peer < 0 {
			n++
		}
	}
	return n
}

func commName(t *model.Trace, c int32) string {
	if c < 0 {
		return ""
	}
	return t.Comms[c].Name + "|" + t.Comms[c].Desc
}
