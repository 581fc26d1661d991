package dataset_test

import (
	"path/filepath"
	"testing"

	"github.com/tpptrace/tpptrace/samples/sampletest"
	"github.com/tpptrace/tpptrace/samples/shared"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// TestRealTracesRoundTrip reads real Kineto traces, stores them as a
// dataset and reads them back whole and one rank at a time.
func TestRealTracesRoundTrip(t *testing.T) {
	root := shared.Dir(t, "traces")
	for _, name := range []string{"param_dlrm_8rank", "hta_nccl_data_rank0of2"} {
		t.Run(name, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(root, "kineto", name, "*.json*"))
			if len(files) == 0 {
				t.Skipf("no trace files in %s", name)
			}
			roundTrip(t, sampletest.Load(t, source.Options{}, files...))
		})
	}
}

func roundTrip(t *testing.T, tr *model.Trace) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	if err := dataset.Write(dir, tr, dataset.Manifest{Tool: "conformance"}); err != nil {
		t.Fatal(err)
	}
	got, m, err := dataset.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	dataset.DiffDumps(t, dataset.Dump(tr), dataset.Dump(got))
	if tr.Events.Len() == 0 || m.Events != int64(tr.Events.Len()) {
		t.Fatalf("trace has %d events, manifest %d", tr.Events.Len(), m.Events)
	}
	last := m.Ranks[len(m.Ranks)-1]
	one, _, err := dataset.ReadRanks(dir, []int32{last})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := tr.Events.RankRange(last)
	if one.Events.Len() != hi-lo || one.Events.Len() > 0 && one.Name(0) != tr.Name(lo) {
		t.Fatalf("rank %d: %d events read alone, %d in the trace", last, one.Events.Len(), hi-lo)
	}
}
