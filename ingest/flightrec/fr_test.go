package flightrec

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/ingest/flightrec/pickle"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
	"github.com/tpptrace/tpptrace/samples/shared"
)

func readDumps(t *testing.T, dir string) []*model.FRDump {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "_dump_*"))
	var out []*model.FRDump
	for _, p := range paths {
		d, err := ReadDump(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

func TestForbiddenPickleDumpIsRejected(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "nccl_trace_rank_0")
	// GLOBAL os.system + REDUCE: would run a shell command if executed.
	if err := os.WriteFile(p, []byte("\x80\x02cos\nsystem\nq\x00X\x0b\x00\x00\x00echo pwnedq\x01\x85q\x02Rq\x03."), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadDump(p)
	var fe *source.FileError
	if !errors.Is(err, pickle.ErrForbidden) || !errors.As(err, &fe) || fe.Path != p || fe.Offset != 2 {
		t.Fatalf("want a FileError at byte 2 wrapping ErrForbidden, got %v", err)
	}
}

func TestTruncatedDumpIsAnError(t *testing.T) {
	src := filepath.Join(shared.FRDumps(t, "gpu_error_1st"), "_dump_12")
	b, _ := os.ReadFile(src)
	p := filepath.Join(t.TempDir(), "_dump_12")
	os.WriteFile(p, b[:len(b)/2], 0o644)
	if _, err := ReadDump(p); err == nil || !strings.Contains(err.Error(), "_dump_12") {
		t.Fatalf("truncated dump: %v", err)
	}
}

func TestNonFiniteDurationIsNone(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := floatOr(v, -1); got != -1 {
			t.Errorf("duration %v read as %v, want -1 (none)", v, got)
		}
	}
	if got := floatOr(2.5, -1); got != 2.5 {
		t.Errorf("2.5 read as %v", got)
	}
}

func TestReadFlightRecorderTrace(t *testing.T) {
	dir := shared.FRDumps(t, "lock_gil_1st")
	tr, err := Format.Read(context.Background(), []string{dir}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	descs := map[string]int{}
	for _, c := range tr.Comms {
		descs[c.Desc]++
	}
	// TP=4, PP=2 on 16 ranks: four TP groups, eight PP groups (pg_config).
	if len(tr.Ranks) != 16 || descs["TENSOR_MODEL_PARALLEL_GROUP"] != 4 || descs["PIPELINE_MODEL_PARALLEL_GROUP"] != 8 {
		t.Fatalf("ranks %d, groups per desc %v", len(tr.Ranks), descs)
	}
}
