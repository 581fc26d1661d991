package flightrec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/shared"
)

// TestFREventsRealDumpsUntimed: the shared dumps were taken without
// TORCH_NCCL_ENABLE_TIMING (no duration_ms): no events, no fallback.
func TestFREventsRealDumpsUntimed(t *testing.T) {
	for _, sc := range []string{"gpu_error_1st", "lock_gil_1st"} {
		tr, err := Format.Read(context.Background(), []string{shared.FRDumps(t, sc)}, source.Options{})
		if err != nil {
			t.Fatal(err)
		}
		timed := 0
		for _, d := range readDumps(t, shared.FRDumps(t, sc)) {
			for _, e := range d.Entries {
				if e.Duration >= 0 {
					timed++
				}
			}
		}
		if tr.Events.Len() != timed || tr.Fallback != (timed > 0) {
			t.Errorf("%s: %d events, fallback %v; the dumps hold %d timed entries", sc, tr.Events.Len(), tr.Fallback, timed)
		}
	}
}

// frJSON is a JSON dump of one rank of a two-rank job: an all-reduce and a
// send/recv, timed.
func frJSON(rank int, startNs int64, durMs float64) string {
	p2p := fmt.Sprintf(`"nccl:send %d->%d"`, rank, 1-rank)
	if rank == 1 {
		p2p = `"nccl:recv 1<-0"`
	}
	return fmt.Sprintf(`{"version": "2.9", "nccl_version": "2.27.3", "pg_config": {"0": {"name": "0", "desc": "default_pg", "ranks": "[0, 1]"}},
"pg_status": {}, "entries": [
{"record_id": 1, "pg_id": 0, "process_group": ["0", "default_pg"], "collective_seq_id": 7, "p2p_seq_id": 0, "op_id": 7,
 "profiling_name": "nccl:all_reduce", "time_created_ns": %d, "time_discovered_started_ns": %d, "duration_ms": %g,
 "input_sizes": [[1024]], "input_dtypes": ["BFloat16"], "output_sizes": [[1024]], "output_dtypes": ["BFloat16"], "state": "completed", "is_p2p": false},
{"record_id": 2, "pg_id": 0, "process_group": ["0", "default_pg"], "collective_seq_id": 7, "p2p_seq_id": 1, "op_id": 8,
 "profiling_name": %s, "time_created_ns": %d, "duration_ms": 0.5,
 "input_sizes": [[256]], "input_dtypes": ["Float"], "output_sizes": [[256]], "output_dtypes": ["Float"], "state": "completed", "is_p2p": true}]}`,
		startNs-1000, startNs, durMs, p2p, startNs+10_000_000)
}

func TestFREventsTimedDumps(t *testing.T) {
	dir := t.TempDir()
	for r, start := range []int64{1_000_000_000, 1_002_000_000} { // rank 1 arrives 2 ms late
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("dump_%d", r)), []byte(frJSON(r, start, 3-2*float64(r))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := Format.Read(context.Background(), []string{filepath.Join(dir, "dump_0"), filepath.Join(dir, "dump_1")}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil || !tr.Fallback || tr.Events.Len() != 4 {
		t.Fatalf("validate %v, fallback %v, %d events (want 4)", err, tr.Fallback, tr.Events.Len())
	}
	ar := map[int32]model.Event{}
	for i := 0; i < tr.Events.Len(); i++ {
		e := tr.Events.At(i)
		c := tr.Colls.At(int(e.Coll))
		switch c.Op {
		case model.OpAllReduce:
			ar[e.Rank] = e
			if c.Seq != 7 || c.Bytes != 2048 || tr.Comms[c.Comm].ID != "0" || c.GroupSize != 2 {
				t.Errorf("all-reduce collective %+v", c)
			}
		case model.OpSend, model.OpRecv:
			if c.Peer != 1-e.Rank || c.Seq != 1 || c.Bytes != 1024 {
				t.Errorf("p2p on rank %d: %+v", e.Rank, c)
			}
		default:
			t.Errorf("unexpected op %s", c.Op)
		}
	}
	// Both ranks end together: rank 0 waited 2 ms for rank 1.
	if ar[0].Start != 1_000_000_000 || ar[0].End() != ar[1].End() || ar[1].Dur != 1_000_000 {
		t.Errorf("all-reduce events %+v %+v", ar[0], ar[1])
	}
}
